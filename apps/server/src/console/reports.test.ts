import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleCustomerRow, ConsoleLicenseRow, ConsoleSubscriptionRow, Overview } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, type ConsoleFixtures } from '../../test/console/fixtures';
import { toCsv } from './csv';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let billing: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('money@vendor.example', 'billing');
  billing = await t.signInStaff('money@vendor.example');
  fx = await consoleFixtures(t);
});
afterAll(async () => t.close());

const get = (url: string) => t.consoleApp.inject({ method: 'GET', url, headers: { cookie: billing } });

describe('the overview', () => {
  it("matches the invoices to the cent: MRR is what a month's invoices charge, ARR twelve times it", async () => {
    const second = await fx.subscription();
    void second;
    const res = await get('/api/console/overview');
    expect(res.statusCode, res.body).toBe(200);
    const o: Overview = res.json();
    // Every subscription here is monthly and was just paid for a whole month: MRR is their invoices' sum.
    const invoices = (await get('/api/console/invoices?status=paid&size=100')).json().items as Array<{ amountPaid: number }>;
    const paid = invoices.reduce((s, i) => s + i.amountPaid, 0);
    expect(o.mrr).toBe(paid);
    expect(o.arr).toBe(paid * 12);
    expect(o).toMatchObject({ currency: 'usd', activeSubscriptions: 2, pastDueSubscriptions: 0, newSubscriptions: 2 });
    expect(o.activeNodes).toBe(1);
    expect(o.months).toHaveLength(12);
    const thisMonth = o.months.at(-1)!;
    expect(thisMonth).toMatchObject({ mrr: o.mrr, revenue: paid, newSubscriptions: 2, churnedSubscriptions: 0 });
  });

  it('divides a yearly subscription by 12 and leaves ended ones out', async () => {
    const before: Overview = (await get('/api/console/overview')).json();
    const id = await fx.subscription();
    await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/subscriptions/${id}/cancel-now`,
      headers: { cookie: billing },
      payload: { reason: 'test' },
    });
    const after: Overview = (await get('/api/console/overview')).json();
    expect(after.mrr).toBe(before.mrr);
    expect(after.churnedSubscriptions).toBe(before.churnedSubscriptions + 1);

    t.clock.advance(11_000);
    const yearly = await t.app.inject({
      method: 'POST',
      url: '/api/billing/intents/checkout',
      headers: { cookie: fx.a.cookie },
      payload: { interval: 'year', quantity: 1 },
    });
    expect(yearly.statusCode, yearly.body).toBe(201);
    const withYearly: Overview = (await get('/api/console/overview')).json();
    // PRICE_YEAR 25000 a year: 2083.33 a month, rounded once over the sum.
    expect(withYearly.mrr).toBe(after.mrr + 2083);
    expect(withYearly.arr).toBe(after.arr + 25000);
  });
  it('counts a subscription set to cancel at the period end in the MRR headline and the chart alike, until it ends', async () => {
    const before: Overview = (await get('/api/console/overview')).json();
    await fx.cancelledSubscription();
    const after: Overview = (await get('/api/console/overview')).json();
    expect(after.mrr).toBeGreaterThan(before.mrr);
    expect(after.months.at(-1)!.mrr).toBe(after.mrr);
  });
});

describe('the lists', () => {
  it('filter, sort and page subscriptions', async () => {
    const all = (await get('/api/console/subscriptions?sort=createdAt&order=asc&size=2')).json();
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.items).toHaveLength(2);
    expect(all.items[0].createdAt <= all.items[1].createdAt).toBe(true);
    const ended = (await get('/api/console/subscriptions?status=canceled')).json().items as ConsoleSubscriptionRow[];
    expect(ended.length).toBeGreaterThan(0);
    expect(ended.every((s) => s.status === 'canceled')).toBe(true);
    const mine = (await get(`/api/console/subscriptions?q=${encodeURIComponent(fx.a.ids.stripeId!)}`)).json();
    expect(mine.items.map((s: ConsoleSubscriptionRow) => s.subscriptionId)).toEqual([fx.a.ids.stripeId]);
  });

  it('lists licenses by status, expiry and kind, and customers by address', async () => {
    const comp = await fx.license();
    const complimentary = (await get('/api/console/licenses?complimentary=true&size=100')).json().items as ConsoleLicenseRow[];
    expect(complimentary.map((l) => l.licenseKey)).toContain(comp);
    expect(complimentary.every((l) => l.subscriptionId === null)).toBe(true);
    const soon = (await get('/api/console/licenses?expiringWithinDays=45&size=100')).json().items as ConsoleLicenseRow[];
    expect(soon.map((l) => l.licenseKey)).toContain(comp);
    const expired = (await get('/api/console/licenses?status=expired')).json().items as ConsoleLicenseRow[];
    expect(expired.every((l) => l.status === 'expired')).toBe(true);
    const customers = (await get(`/api/console/customers?q=${encodeURIComponent(fx.a.email)}`)).json();
    expect(customers.items).toEqual([expect.objectContaining({ id: fx.userId, activeSubscriptions: expect.any(Number) })]);
  });

  it("counts each customer's active subscriptions and licenses, in the page and in the CSV", async () => {
    const [counts] = await t.db
      .select({
        subs: sql<number>`(select count(*)::int from subscriptions where user_id = ${fx.userId} and status in ('active', 'past_due'))`,
        lics: sql<number>`(select count(*)::int from licenses where user_id = ${fx.userId})`,
      })
      .from(sql`(select 1) one`);
    expect(counts!.subs).toBeGreaterThan(0);
    expect(counts!.lics).toBeGreaterThan(0);
    const q = encodeURIComponent(fx.a.email);
    const [row] = (await get(`/api/console/customers?q=${q}`)).json().items as ConsoleCustomerRow[];
    expect(row).toMatchObject({ id: fx.userId, activeSubscriptions: counts!.subs, licenses: counts!.lics });
    const csv = (await get(`/api/console/customers?format=csv&q=${q}`)).body.trim().split('\r\n');
    expect(csv[0]).toBe('id,email,name,company,createdAt,activeSubscriptions,licenses');
    expect(csv[1]!.split(',').slice(-2)).toEqual([String(counts!.subs), String(counts!.lics)]);
  });

  it('exports any list as CSV', async () => {
    const res = await get('/api/console/invoices?format=csv&sort=amount');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoices.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('number,email,status,amountDue,amountPaid,currency,created,subscriptionId,userId,id');
    expect(lines.length).toBeGreaterThan(1);
    expect((await get('/api/console/customers?format=xml')).statusCode).toBe(400);
  });

  it('keeps every export out of caches and records it in the staff audit log: who, which list, the filters', async () => {
    t.clock.advance(1000); // after the earlier test's export in the audit log's order
    const csv = await get('/api/console/invoices?format=csv&status=paid&page=1');
    expect(csv.headers['cache-control']).toBe('no-store');
    const audit = (await get('/api/console/audit?size=5')).json().items as Array<Record<string, unknown>>;
    expect(audit[0]).toMatchObject({
      staffEmail: 'money@vendor.example',
      action: 'exportInvoices',
      subject: 'invoices.csv',
      userId: null,
      data: { filters: { status: 'paid' } },
    });
    // A page read as JSON is not an export.
    await get('/api/console/invoices?status=paid');
    expect(((await get('/api/console/audit?size=5')).json().items as Array<{ id: string }>)[0]!.id).toBe(audit[0]!.id);
  });

  it('exports every row of a list as CSV in the order of its pages', async () => {
    await fx.customer();
    await fx.customer();
    const pageRows = (await get('/api/console/customers?sort=email&order=asc&size=100')).json().items as ConsoleCustomerRow[];
    const csv = (await get('/api/console/customers?sort=email&order=asc&format=csv')).body.trim().split('\r\n');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(pageRows.map((r) => r.id));
    const newest = (await get('/api/console/customers?size=100')).json();
    expect(newest.total).toBe(newest.items.length);
    for (const list of ['customers', 'subscriptions', 'licenses', 'invoices']) {
      // A deep page reads its ids first: the same rows as the same place of a bigger page.
      const big = (await get(`/api/console/${list}?size=6`)).json();
      const second = (await get(`/api/console/${list}?size=2&page=2`)).json();
      expect(second.items, list).toEqual(big.items.slice(2, 4));
      expect(second.total, list).toBe(big.total);
    }
    const all = (await get('/api/console/customers?format=csv')).body.trim().split('\r\n');
    expect(all.slice(1).map((line) => line.split(',')[0])).toEqual(newest.items.map((r: ConsoleCustomerRow) => r.id));
  });

  it('writes CSV that spreadsheets cannot run', () => {
    expect(toCsv([{ a: '=HYPERLINK("x")', b: 'plain, "quoted"', c: -5 }], ['a', 'b', 'c'])).toBe(
      `a,b,c\r\n"'=HYPERLINK(""x"")","plain, ""quoted""",-5\r\n`,
    );
  });
});
