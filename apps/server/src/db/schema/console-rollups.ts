import { bigint, boolean, date, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';

/*
 * The vendor console's rollups (docs/decisions/080-console-rollups-by-triggers.md): figures of the
 * overview and the lists' totals, kept current by PostgreSQL triggers on the tables that change
 * them, in the transaction that changes them (migration 0011_console_rollup_triggers.sql). No
 * TypeScript writes them; console_rollups_rebuild() recounts them from the tables.
 */

/** Whole-table figures by name: subscriptions_active, subscriptions_past_due, customers, ... */
export const consoleCounters = pgTable('console_counters', {
  name: text('name').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
});

/**
 * Per UTC day: subscriptions started (not incomplete) and ended, their MRR (× 12, so that a yearly
 * price is counted exactly, in cents), paid invoices less refunds, failed payments.
 */
export const consoleDays = pgTable('console_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  newSubscriptions: integer('new_subscriptions').notNull().default(0),
  churnedSubscriptions: integer('churned_subscriptions').notNull().default(0),
  mrr12Started: bigint('mrr12_started', { mode: 'number' }).notNull().default(0),
  mrr12Ended: bigint('mrr12_ended', { mode: 'number' }).notNull().default(0),
  revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
  failedPayments: integer('failed_payments').notNull().default(0),
});

/**
 * What each subscription adds to the rollups now, so that a change (of the subscription or of its
 * card) takes off exactly what it added before, whatever happened in between.
 */
export const consoleSubscriptionFacts = pgTable('console_subscription_facts', {
  subscriptionId: uuid('subscription_id').primaryKey(),
  status: text('status').notNull(),
  hasCustomer: boolean('has_customer').notNull(),
  startDay: date('start_day', { mode: 'string' }),
  endDay: date('end_day', { mode: 'string' }),
  mrr12: bigint('mrr12', { mode: 'number' }).notNull(),
  cardExpiring: boolean('card_expiring').notNull(),
});
