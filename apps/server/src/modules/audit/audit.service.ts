import { count, desc, eq } from 'drizzle-orm';
import type { AuditEvent, Page } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import { auditEvents } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';

export type AuditEntry = {
  userId: string | null;
  actor: string;
  action: string;
  summary: string;
  subjectType?: string;
  subjectId?: string;
  data?: Record<string, unknown>;
};

/** The customer's activity log: every change to their account, cards, subscriptions, licenses and nodes. */
export function createAuditService(deps: { db: Db; clock: Clock }) {
  return {
    async record(tx: Tx, entry: AuditEntry) {
      await tx.insert(auditEvents).values({ ...entry, createdAt: deps.clock.now() });
    },
    async list(userId: string, page: number, size: number): Promise<Page<AuditEvent>> {
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
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
