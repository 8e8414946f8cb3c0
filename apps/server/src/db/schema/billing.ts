import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { INVOICE_STATUSES, SUBSCRIPTION_END_REASONS } from '@portal/contract';
import { users } from './users';

/** Who holds a customer and its subscriptions: the embedded engine or Stripe. */
export const paymentProvider = pgEnum('payment_provider', ['local', 'stripe']);
/** A subscription's state, in Stripe's words (ours are a subset of its statuses). */
export const subscriptionStatus = pgEnum('subscription_status', ['active', 'past_due', 'incomplete', 'canceled']);
export const billingInterval = pgEnum('billing_interval', ['month', 'year']);
/**
 * Why an ended (`canceled`) subscription ended, as Stripe's cancellation reason says it:
 * cancelled at its period's end, unpaid when a failed payment's grace ran out (ended for
 * non-payment), ended now by the vendor's staff, or with its owner's account.
 */
export const subscriptionEndReason = pgEnum('subscription_end_reason', SUBSCRIPTION_END_REASONS);
/** The built-in engine's invoices, in Stripe's words. */
export const invoiceStatus = pgEnum('invoice_status', INVOICE_STATUSES);
/** The built-in engine's setup intents: waiting for a card, or done. */
export const setupIntentStatus = pgEnum('setup_intent_status', ['requires_payment_method', 'succeeded']);
/** Money given back on an invoice: `refund` to the card, or `credit` to the customer's balance. */
export const refundKind = pgEnum('refund_kind', ['refund', 'credit']);
/** The notices e-mailed about a subscription (modules/billing/billing-notices.ts). */
export const billingNoticeKind = pgEnum('billing_notice_kind', [
  'renewal-upcoming',
  'card-expiring',
  'payment-failed',
  'payment-reminder',
]);

/** Our user -> the payment provider's customer. */
export const customers = pgTable('customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: paymentProvider('provider').notNull(),
  providerCustomerId: text('provider_customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Cards of the local billing engine: only brand, last 4 and expiry are ever stored. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** Test-card behaviour of the local engine: succeeds | declined | insufficient_funds. */
    behaviour: text('behaviour').notNull().default('succeeds'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
  },
  (t) => [index('payment_methods_customer_idx').on(t.customerId)],
);

/** Setup intents of the local billing engine (client secret stored hashed). */
export const setupIntents = pgTable('setup_intents', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  clientSecretHash: text('client_secret_hash').notNull().unique(),
  status: setupIntentStatus('status').notNull().default('requires_payment_method'),
  paymentMethodId: text('payment_method_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The provider's id (`stripeId` in paths), e.g. sub_… */
    providerId: text('provider_id').notNull().unique(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    provider: paymentProvider('provider').notNull(),
    status: subscriptionStatus('status').notNull(),
    plan: text('plan').notNull(),
    quantity: integer('quantity').notNull(),
    interval: billingInterval('interval').notNull(),
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency').notNull(),
    paymentMethodId: text('payment_method_id'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** Set when the subscription ends (status canceled); null while it runs. */
    endedReason: subscriptionEndReason('ended_reason'),
    /** A failed renewal's next payment attempt (the built-in engine's retries; null when none is planned). */
    nextPaymentAttemptAt: timestamp('next_payment_attempt_at', { withTimezone: true }),
    /** Idempotency of checkout: one subscription per operation key. */
    checkoutKey: text('checkout_key').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('subscriptions_ended_reason_only_when_ended', sql`${t.endedReason} is null or ${t.status} = 'canceled'`),
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_renewal_idx')
      .on(t.currentPeriodEnd)
      .where(sql`status = 'active'`),
  ],
);

export const invoiceNumberSeq = pgSequence('invoice_number_seq', { startWith: 1001 });

export type InvoiceLine = {
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  periodStart: string;
  periodEnd: string;
};

/** A party as an invoice names it, copied when the invoice is issued (never rewritten afterwards). */
export type InvoiceParty = {
  /** The legal (company) name, or the person's name for an individual. */
  name: string;
  /** The person behind a buyer, when a company name is given too. */
  contact?: string | null;
  email?: string | null;
  addressLines: string[];
  country: string | null;
  taxId: { type: string; value: string; status?: string } | null;
  registration?: string | null;
  footerLines?: string[];
};
/** Tax per rate on a document: net and tax in minor units, the rate in basis points. */
export type TaxBreakdownRow = { rateBp: number; net: number; tax: number };

/**
 * The numbers of invoices and credit notes, one row per series: taken with `update … returning`
 * in the issuing transaction, so numbers are sequential without gaps (a rolled-back invoice gives
 * its number back) and two invoices never share one (the row lock makes them take turns).
 */
export const documentCounters = pgTable('document_counters', {
  series: text('series').primaryKey(),
  lastValue: integer('last_value').notNull(),
});

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: invoiceStatus('status').notNull(),
    currency: text('currency').notNull(),
    amountDue: integer('amount_due').notNull(),
    amountPaid: integer('amount_paid').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    /** Billing name and e-mail at the time; anonymised when the account is deleted. */
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The tax on the lines (amount_due = lines + tax − credit applied); 0 before the tax engine. */
    taxAmount: integer('tax_amount').notNull().default(0),
    taxBreakdown: jsonb('tax_breakdown').$type<TaxBreakdownRow[]>().notNull().default([]),
    /** The tax regime (none, domestic, eu_consumer, reverse_charge, export); null before the tax engine. */
    taxRegime: text('tax_regime'),
    /** The sentence the regime puts on the invoice (reverse charge, export). */
    taxNote: text('tax_note'),
    buyer: jsonb('buyer').$type<InvoiceParty>(),
    seller: jsonb('seller').$type<InvoiceParty>(),
  },
  (t) => [
    index('invoices_subscription_idx').on(t.subscriptionId, t.createdAt),
    // A customer's invoices and their credit balance are read by user, not by subscription.
    index('invoices_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Money the local engine gave back on one of its invoices (from the console): `refund` paid back
 * to the card, or `credit` added to the customer's balance, which creditBalance takes off their
 * next charges. Several per invoice, never more in all than was paid (billing checks it with the
 * invoice row locked). `op_id` is the operation's id, so a retried one is written once.
 */
export const invoiceRefunds = pgTable(
  'invoice_refunds',
  {
    id: text('id').primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    kind: refundKind('kind').notNull().default('refund'),
    opId: text('op_id').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoice_refunds_invoice_idx').on(t.invoiceId), check('invoice_refunds_amount_positive', sql`${t.amount} > 0`)],
);

/**
 * A credit note: the document a refund or credit of an invoice issues (own series, CN-…), with the
 * net and tax given back at the invoice's rate. Never changed once issued.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    refundId: text('refund_id')
      .notNull()
      .unique()
      .references(() => invoiceRefunds.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: refundKind('kind').notNull(),
    currency: text('currency').notNull(),
    netAmount: integer('net_amount').notNull(),
    taxAmount: integer('tax_amount').notNull(),
    total: integer('total').notNull(),
    taxBreakdown: jsonb('tax_breakdown').$type<TaxBreakdownRow[]>().notNull().default([]),
    taxNote: text('tax_note'),
    buyer: jsonb('buyer').$type<InvoiceParty>(),
    seller: jsonb('seller').$type<InvoiceParty>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_notes_invoice_idx').on(t.invoiceId), index('credit_notes_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Notices e-mailed about a subscription (renewal coming up, card expiring, payment failed), one row
 * per subscription, kind and billing period: the row is written with the e-mail's outbox job, so
 * each notice goes out once however many workers look.
 */
export const billingNotices = pgTable(
  'billing_notices',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    kind: billingNoticeKind('kind').notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.kind, t.periodEnd] })],
);

/** Stripe webhook events, processed once per event id. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
});
