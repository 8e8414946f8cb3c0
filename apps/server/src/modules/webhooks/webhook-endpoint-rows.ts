import { eq } from 'drizzle-orm';
import type { StaffAuditAction, WebhookEndpoint } from '@portal/contract';
import type { Tx } from '../../db/client';
import { staffAudit, webhookEndpoints } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { WebhookActor } from './webhook-types';

/**
 * What the console's changes to an endpoint share: its row read under lock, its shape in the
 * answers, and the staff audit entry each change writes in its own transaction.
 */

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes,
  enabled: r.enabled,
  disabledReason: r.disabledReason,
  previousSecretExpiresAt: r.previousSecretExpiresAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function lockEndpoint(tx: Tx, id: string): Promise<EndpointRow> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND', 'This webhook endpoint was not found');
  return row;
}

export async function auditWebhookAction(
  tx: Tx,
  clock: Clock,
  actor: WebhookActor,
  action: StaffAuditAction,
  reason: string,
  subject: string,
  data = {},
) {
  await tx.insert(staffAudit).values({
    staffId: actor.id,
    staffEmail: actor.email,
    action,
    reason,
    subject,
    data,
    at: clock.now(),
  });
}
