import { count, desc, eq } from 'drizzle-orm';
import type { AuditEvent as ActivityItem, Page } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { auditEvents } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { toAuditEntry, type AuditEvent } from './audit-events';

/** The customer's activity log: every change to their account, cards, subscriptions, licenses and nodes. */
export function createAuditService(deps: {
  db: Db;
  clock: Clock;
  /** Told of every entry in its transaction (outbound webhooks announce the change from it). */
  onRecord?: (tx: Tx, event: AuditEvent) => Promise<void>;
}) {
  /** Records `event` in the caller's transaction, worded by toAuditEntry(). */
  async function record(tx: Tx, event: AuditEvent): Promise<void> {
    await tx.insert(auditEvents).values({ ...toAuditEntry(event), createdAt: deps.clock.now() });
    await deps.onRecord?.(tx, event);
  }

  async function list(userId: string, page: number, size: number): Promise<Page<ActivityItem>> {
    const [rows, [total]] = await Promise.all([
      deps.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.userId, userId))
        .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
        .limit(size)
        .offset((page - 1) * size),
      deps.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.userId, userId)),
    ]);
    return {
      items: rows.map((r) => ({ id: r.id, action: r.action, summary: r.summary, createdAt: r.createdAt.toISOString() })),
      page,
      size,
      total: total?.n ?? 0,
    };
  }

  return { record, list };
}
export type AuditService = ReturnType<typeof createAuditService>;
