// One rule, two forms (ADR 121): each billing rule the console reads in SQL (a subscription's
// access, a failing payment, what was refunded to the card, which invoices are sales) selects the
// same rows as its TypeScript function, for every status and combination; and the console's lists,
// overview, tax report and rollups (kept by the triggers of migration 0013) answer by them.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVOICE_STATUSES,
  ListCustomersQuerySchema,
  ListInvoicesQuerySchema,
  SUBSCRIPTION_STATUSES,
  type InvoiceStatus,
} from '@portal/contract';
import { createLists } from '../../console/lists';
import { createOverview } from '../../console/overview';
import { createTaxReport } from '../../console/tax-report';
import type { Database } from '../../db/client';
import { invoiceRefunds, invoices, subscriptions, users } from '../../db/schema/index';
import { manualClock } from '../../lib/clock';
import { createTestDatabase } from '../../../test/helpers';
import type { SubscriptionRow } from './billing.repository';
import { billingReads } from './billing.repository';
import { invoiceIsSaleSql, invoiceStateOf, isSale, refundedToCard, refundedToCardSql } from './invoice-rules';
import { hasAccess, SUBSCRIPTION_ACCESS_STATUSES, subscriptionGivesAccessSql } from './lifecycle';
import type { GiveBack } from './refunds';
import { paymentTrouble, paymentTroubleSql } from './transition';

const GRACE_DAYS = 14;
const DAY = 86_400_000;
// The rows' created_at is the database's now(): the console's "today" must be that day.
const clock = manualClock(new Date());
let database: Database;
let userId: string;
let subs: SubscriptionRow[] = [];
type InvoiceCase = { invoice: typeof invoices.$inferSelect; givenBack: Array<{ kind: GiveBack; amount: number }> };
const bills: InvoiceCase[] = [];

/** What a paid invoice of 1000 got back: nothing, part or all to the card, credits, both. */
const GIVEN_BACK: Array<Array<{ kind: GiveBack; amount: number }>> = [
  [],
  [{ kind: 'refund', amount: 400 }],
  [{ kind: 'refund', amount: 1000 }],
  [{ kind: 'credit', amount: 1000 }],
  [
    { kind: 'refund', amount: 300 },
    { kind: 'credit', amount: 200 },
  ],
  [
    { kind: 'refund', amount: 600 },
    { kind: 'refund', amount: 400 },
  ],
];

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const [user] = await db.insert(users).values({ email: 'billing-rules@example.com' }).returning();
  userId = user!.id;
  await db.insert(users).values({ email: 'no-subscriptions@example.com' });
  const now = clock.now();
  let n = 0;
  subs = await db
    .insert(subscriptions)
    .values(
      SUBSCRIPTION_STATUSES.flatMap((status) =>
        [false, true].flatMap((cancelAtPeriodEnd) =>
          (['month', 'year'] as const).map((interval) => ({
            providerId: `sub_rules_${n++}`,
            userId,
            provider: 'local' as const,
            status,
            plan: 'standard',
            quantity: n,
            interval,
            unitAmount: 1000 + n,
            currency: 'usd',
            currentPeriodStart: new Date(now.getTime() - 5 * DAY),
            currentPeriodEnd: new Date(now.getTime() + 25 * DAY),
            cancelAtPeriodEnd,
          })),
        ),
      ),
    )
    .returning();
  for (const status of INVOICE_STATUSES) {
    for (const givenBack of status === 'paid' ? GIVEN_BACK : [[]]) {
      const [invoice] = await db
        .insert(invoices)
        .values({
          number: `RULES-${bills.length + 1}`,
          userId,
          status,
          currency: 'usd',
          amountDue: 1000,
          amountPaid: status === 'paid' ? 1000 : 0,
          periodStart: now,
          periodEnd: new Date(now.getTime() + 30 * DAY),
          lines: [],
          reason: 'subscription_cycle',
        })
        .returning();
      for (const g of givenBack) {
        await db.insert(invoiceRefunds).values({
          id: randomUUID(),
          invoiceId: invoice!.id,
          amount: g.amount,
          currency: 'usd',
          kind: g.kind,
          opId: randomUUID(),
        });
      }
      bills.push({ invoice: invoice!, givenBack });
    }
  }
});
afterAll(async () => database.close());

const ids = (list: Array<{ id: string }>) => list.map((r) => r.id).sort();
const mrr12 = (s: SubscriptionRow) => s.unitAmount * s.quantity * (s.interval === 'month' ? 12 : 1);

describe('subscription access', () => {
  it('has the statuses hasAccess gives access to, and only those', () => {
    expect(SUBSCRIPTION_ACCESS_STATUSES.length).toBeGreaterThan(0);
    for (const status of SUBSCRIPTION_STATUSES) expect(SUBSCRIPTION_ACCESS_STATUSES.includes(status)).toBe(hasAccess({ status }));
  });

  it('selects in SQL exactly the subscriptions hasAccess gives access to', async () => {
    const found = await database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(subscriptionGivesAccessSql(subscriptions.status));
    expect(ids(found)).toEqual(ids(subs.filter(hasAccess)));
  });

  it('counts them per customer in the billing read the customer list uses', async () => {
    const found = await database.db
      .select({ id: users.id, n: billingReads.subscriptionsWithAccessOf(sql`${users.id}`) })
      .from(users);
    expect(Object.fromEntries(found.map((r) => [r.id, Number(r.n)]))).toMatchObject({ [userId]: subs.filter(hasAccess).length });
    expect(found.filter((r) => r.id !== userId).map((r) => Number(r.n))).toEqual([0]);
  });

  it('shows the count on the console’s customer list', async () => {
    const lists = createLists({ db: database.db, clock, graceDays: GRACE_DAYS });
    const page = await lists.listCustomers(ListCustomersQuerySchema.parse({ q: 'billing-rules@' }));
    expect(page.items.map((c) => [c.id, c.activeSubscriptions])).toEqual([[userId, subs.filter(hasAccess).length]]);
  });

  it('rolls up the active and past due counters and the MRR of exactly the subscriptions with access', async () => {
    const overview = await createOverview({ db: database.db, clock, currency: 'usd' }).getOverview();
    const withAccess = subs.filter(hasAccess);
    expect(overview.activeSubscriptions + overview.pastDueSubscriptions).toBe(withAccess.length);
    expect(overview.arr).toBe(withAccess.reduce((n, s) => n + mrr12(s), 0));
    expect(overview.months.at(-1)!.mrr).toBe(overview.mrr);
  });
});

describe('payment trouble', () => {
  it('selects in SQL exactly the subscriptions paymentTrouble reports', async () => {
    const found = await database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(paymentTroubleSql(subscriptions.status));
    const failing = subs.filter((s) => paymentTrouble(s, GRACE_DAYS) !== null);
    expect(failing.length).toBeGreaterThan(0);
    expect(ids(found)).toEqual(ids(failing));
  });

  it('puts exactly those at risk on the overview', async () => {
    const overview = await createOverview({ db: database.db, clock, currency: 'usd' }).getOverview();
    const failing = subs.filter((s) => paymentTrouble(s, GRACE_DAYS) !== null);
    expect(overview.subscriptionsAtRisk).toBe(failing.length);
    expect(overview.pastDueSubscriptions).toBe(failing.length);
    expect(overview.mrrAtRisk).toBe(Math.round(failing.reduce((n, s) => n + mrr12(s), 0) / 12));
  });
});

describe('refunds to the card and the invoice’s state', () => {
  it('sums in SQL what refundedToCard sums, for every mix of refunds and credits', async () => {
    const found = await database.db
      .select({ id: invoices.id, refunded: refundedToCardSql(invoices.id) })
      .from(invoices)
      .where(eq(invoices.userId, userId));
    const expected = Object.fromEntries(bills.map((b) => [b.invoice.id, refundedToCard(b.givenBack)]));
    expect(Object.fromEntries(found.map((r) => [r.id, Number(r.refunded)]))).toEqual(expected);
    expect(new Set(Object.values(expected))).toEqual(new Set([0, 300, 400, 1000]));
  });

  it('lists every invoice with the state invoiceStateOf gives it', async () => {
    const lists = createLists({ db: database.db, clock, graceDays: GRACE_DAYS });
    const page = await lists.listInvoices(ListInvoicesQuerySchema.parse({ size: '100' }));
    const expected = Object.fromEntries(bills.map((b) => [b.invoice.id, invoiceStateOf(b.invoice, refundedToCard(b.givenBack))]));
    expect(Object.fromEntries(page.items.map((i) => [i.id, i.status]))).toEqual(expected);
    expect(new Set(Object.values(expected))).toEqual(new Set([...INVOICE_STATUSES, 'refunded', 'partially_refunded']));
  });

  it('rolls up as revenue the paid invoices less what went back to the card', async () => {
    const overview = await createOverview({ db: database.db, clock, currency: 'usd' }).getOverview();
    const paid = bills.filter((b) => b.invoice.status === 'paid');
    expect(overview.months.at(-1)!.revenue).toBe(
      paid.reduce((n, b) => n + b.invoice.amountPaid - refundedToCard(b.givenBack), 0),
    );
  });
});

describe('sales', () => {
  it.each(INVOICE_STATUSES)('counts a %s invoice as a sale in SQL exactly when isSale does', async (status: InvoiceStatus) => {
    const [row] = await database.db
      .select({ sale: sql<boolean>`${invoiceIsSaleSql(sql`${status}::invoice_status`)}` })
      .from(sql`(select 1) one`);
    expect(row!.sale).toBe(isSale(status));
  });

  it('reports the sales of the period on the tax report', async () => {
    const today = clock.now().toISOString().slice(0, 10);
    const report = await createTaxReport({ db: database.db }).getTaxReport(today, today);
    expect(report.rows.reduce((n, r) => n + r.invoices, 0)).toBe(bills.filter((b) => isSale(b.invoice.status)).length);
  });
});
