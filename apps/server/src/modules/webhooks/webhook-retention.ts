import { and, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEvents, webhookMessages } from '../../db/schema/index';

/**
 * Deletes what is older than `before`: attempts of the log, settled deliveries, messages no
 * delivery needs any more, and the payment provider's processed event ids. Answers the counts.
 */
export async function pruneWebhookData(db: Db, before: Date) {
  const attempts = await db.delete(webhookAttempts).where(lt(webhookAttempts.at, before)).returning({ id: webhookAttempts.id });
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(and(ne(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.updatedAt, before)))
    .returning({ id: webhookDeliveries.id });
  const old = await db.select({ id: webhookMessages.id }).from(webhookMessages).where(lt(webhookMessages.createdAt, before));
  let messages = 0;
  for (let i = 0; i < old.length; i += 500) {
    const ids = old.slice(i, i + 500).map((r) => r.id);
    const gone = await db
      .delete(webhookMessages)
      .where(
        and(
          inArray(webhookMessages.id, ids),
          sql`not exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.messageId} = ${webhookMessages.id})`,
        ),
      )
      .returning({ id: webhookMessages.id });
    messages += gone.length;
  }
  // Stripe retries an event for three days at most: an id older than the period cannot come back.
  const providerEvents = await db
    .delete(webhookEvents)
    .where(and(lt(webhookEvents.receivedAt, before), sql`${webhookEvents.processedAt} is not null`))
    .returning({ id: webhookEvents.id });
  return { attempts: attempts.length, deliveries: deliveries.length, messages, providerEvents: providerEvents.length };
}
