import { eq } from 'drizzle-orm';
import type { RotateWebhookSecretBody } from '@portal/contract';
import { webhookEndpoints } from '../../db/schema/index';
import { auditWebhookAction, lockEndpoint, toEndpoint } from './webhook-endpoint-rows';
import { generateWebhookSecret } from './webhook-signing';
import type { WebhookActor, WebhookServiceDeps } from './webhook-types';

/** An endpoint's signing secret replaced, with an overlap during which both sign (ADR 101). */
export function createWebhookSecretRotation(deps: Pick<WebhookServiceDeps, 'db' | 'clock' | 'box'>) {
  const { db, clock, box } = deps;

  /** A new secret, shown once; the previous one keeps signing beside it for `overlapHours`. */
  async function rotateSecret(id: string, input: RotateWebhookSecretBody & { overlapHours: number }, actor: WebhookActor) {
    const secret = generateWebhookSecret();
    return db.transaction(async (tx) => {
      const before = await lockEndpoint(tx, id);
      const now = clock.now();
      const [row] = await tx
        .update(webhookEndpoints)
        .set({
          secretSealed: box.seal(secret),
          previousSecretSealed: input.overlapHours > 0 ? before.secretSealed : null,
          previousSecretExpiresAt: input.overlapHours > 0 ? new Date(now.getTime() + input.overlapHours * 3_600_000) : null,
          updatedAt: now,
        })
        .where(eq(webhookEndpoints.id, id))
        .returning();
      await auditWebhookAction(tx, clock, actor, 'webhook_secret_rotated', input.reason, row!.url, {
        endpointId: id,
        overlapHours: input.overlapHours,
      });
      return { endpoint: toEndpoint(row!), secret };
    });
  }

  return { rotateSecret };
}
