import { eq } from 'drizzle-orm';
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpoint } from '@portal/contract';
import { webhookEndpoints } from '../../db/schema/index';
import { cancelPending } from './webhook-delivery';
import { auditWebhookAction, lockEndpoint, toEndpoint, type EndpointRow } from './webhook-endpoint-rows';
import { generateWebhookSecret } from './webhook-signing';
import type { WebhookActor, WebhookServiceDeps } from './webhook-types';

/** The endpoints owners manage in the console: list, add (its secret shown once), change, delete. */
export function createWebhookEndpoints(deps: Pick<WebhookServiceDeps, 'db' | 'clock' | 'box'>) {
  const { db, clock, box } = deps;

  async function list(): Promise<WebhookEndpoint[]> {
    const rows = await db.select().from(webhookEndpoints).orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
    return rows.map(toEndpoint);
  }

  async function create(input: CreateWebhookEndpointBody & { description: string; eventTypes: string[] }, actor: WebhookActor) {
    const secret = generateWebhookSecret();
    const now = clock.now();
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhookEndpoints)
        .values({
          url: input.url,
          description: input.description,
          eventTypes: [...new Set(input.eventTypes)],
          secretSealed: box.seal(secret),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await auditWebhookAction(tx, clock, actor, 'webhook_endpoint_created', input.reason, input.url, { endpointId: row!.id });
      return { endpoint: toEndpoint(row!), secret };
    });
  }

  async function update(id: string, input: UpdateWebhookEndpointBody, actor: WebhookActor): Promise<WebhookEndpoint> {
    return db.transaction(async (tx) => {
      const before = await lockEndpoint(tx, id);
      const patch: Partial<EndpointRow> = { updatedAt: clock.now() };
      if (input.url !== undefined) patch.url = input.url;
      if (input.description !== undefined) patch.description = input.description;
      if (input.eventTypes !== undefined) patch.eventTypes = [...new Set(input.eventTypes)];
      if (input.enabled !== undefined) {
        patch.enabled = input.enabled;
        patch.disabledReason = null;
      }
      const [row] = await tx.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id)).returning();
      if (input.enabled === false && before.enabled) await cancelPending(tx, clock, id);
      const { reason, ...changed } = input;
      await auditWebhookAction(tx, clock, actor, 'webhook_endpoint_updated', reason, row!.url, { endpointId: id, ...changed });
      return toEndpoint(row!);
    });
  }

  async function remove(id: string, reason: string, actor: WebhookActor): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await lockEndpoint(tx, id);
      // Its deliveries and log go with it (foreign keys); its queued jobs find nothing and finish.
      await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      await auditWebhookAction(tx, clock, actor, 'webhook_endpoint_deleted', reason, row.url, { endpointId: id });
    });
  }

  return { list, create, update, remove };
}
