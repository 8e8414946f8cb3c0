import { createWebhookDelivery } from './webhook-delivery';
import { createWebhookDeliveryLog } from './webhook-delivery-log';
import { createWebhookEndpoints } from './webhook-endpoints';
import { createWebhookSecretRotation } from './webhook-secret-rotation';
import type { WebhookServiceDeps } from './webhook-types';

/**
 * Outbound webhooks: endpoints (owners manage them in the console, webhook-endpoints.ts) and
 * their secrets (webhook-secret-rotation.ts), the events announced from the activity log's entries
 * and their delivery through the outbox (webhook-delivery.ts), and the delivery log with its
 * resend (webhook-delivery-log.ts).
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { list, create, update, remove } = createWebhookEndpoints(deps);
  const { rotateSecret } = createWebhookSecretRotation(deps);
  const delivery = createWebhookDelivery(deps);
  const { announce, deliver, giveUp, register } = delivery;
  const { listAttempts, resend } = createWebhookDeliveryLog(deps, delivery);
  return { list, create, update, remove, rotateSecret, announce, deliver, giveUp, listAttempts, resend, register };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
