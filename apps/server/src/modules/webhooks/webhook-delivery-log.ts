import { and, count, desc, eq } from 'drizzle-orm';
import type { Page, WebhookAttempt } from '@portal/contract';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookMessages } from '../../db/schema/index';
import { AppError } from '../../lib/errors';
import { laneOf, type WebhookDelivery } from './webhook-delivery';
import { auditWebhookAction, lockEndpoint } from './webhook-endpoint-rows';
import type { WebhookActor, WebhookServiceDeps } from './webhook-types';

/** An endpoint's delivery log (one row per attempt) and the resend of a delivery from it. */
export function createWebhookDeliveryLog(
  deps: Pick<WebhookServiceDeps, 'db' | 'clock' | 'outbox'>,
  delivery: Pick<WebhookDelivery, 'queueDelivery'>,
) {
  const { db, clock } = deps;

  async function listAttempts(endpointId: string, page: number, size: number): Promise<Page<WebhookAttempt>> {
    const [endpoint] = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpointId));
    if (!endpoint) throw new AppError('NOT_FOUND', 'This webhook endpoint was not found');
    const [rows, [total]] = await Promise.all([
      db
        .select({ a: webhookAttempts, d: webhookDeliveries, m: webhookMessages })
        .from(webhookAttempts)
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
        .where(eq(webhookAttempts.endpointId, endpointId))
        .orderBy(desc(webhookAttempts.id))
        .limit(size)
        .offset((page - 1) * size),
      db.select({ n: count() }).from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId)),
    ]);
    return {
      items: rows.map(({ a, d, m }) => ({
        id: a.id,
        deliveryId: d.id,
        messageId: m.id,
        eventType: m.type,
        attempt: a.attempt,
        at: a.at.toISOString(),
        url: a.url,
        requestBody: JSON.stringify(m.payload),
        responseStatus: a.responseStatus,
        responseBody: a.responseBody,
        error: a.error,
        durationMs: a.durationMs,
        deliveryStatus: d.status,
      })),
      page,
      size,
      total: total?.n ?? 0,
    };
  }

  /** Sends a delivery's message again (same `webhook-id`, so receivers that saw it can drop it). */
  async function resend(endpointId: string, deliveryId: number, reason: string, actor: WebhookActor): Promise<number> {
    const id = await db.transaction(async (tx) => {
      const endpoint = await lockEndpoint(tx, endpointId);
      const [d] = await tx
        .select({
          messageId: webhookDeliveries.messageId,
          resourceType: webhookMessages.resourceType,
          resourceId: webhookMessages.resourceId,
        })
        .from(webhookDeliveries)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
      if (!d) throw new AppError('NOT_FOUND', 'This delivery was not found on this endpoint');
      if (!endpoint.enabled) throw new AppError('CONFLICT', 'This endpoint is turned off: turn it on before resending');
      const newId = await delivery.queueDelivery(tx, endpointId, d.messageId, laneOf(endpointId, d.resourceType, d.resourceId));
      await auditWebhookAction(tx, clock, actor, 'webhook_resent', reason, endpoint.url, {
        endpointId,
        deliveryId,
        messageId: d.messageId,
      });
      return newId;
    });
    void deps.outbox.kick();
    return id;
  }

  return { listAttempts, resend };
}
