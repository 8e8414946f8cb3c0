import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Side effects that must not be lost (e-mails, provider calls after a local commit). Written in
 * the same transaction as the change they belong to; delivered by the outbox worker.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /**
     * Rows sharing a key run one at a time in id order: a row waits while an earlier one of its key
     * is not done (a webhook endpoint's events about one resource arrive in order).
     */
    orderingKey: text('ordering_key'),
  },
  (t) => [
    index('outbox_pending_idx')
      .on(t.availableAt)
      .where(sql`done_at is null`),
    index('outbox_ordering_idx')
      .on(t.orderingKey, t.id)
      .where(sql`done_at is null and ordering_key is not null`),
    index('outbox_done_idx')
      .on(t.doneAt)
      .where(sql`done_at is not null`),
  ],
);
