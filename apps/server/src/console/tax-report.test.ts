import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaxReport } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { startViesStandIn } from '../../test/vies-stand-in';
import { addCard, checkout, invoicesOf, signIn } from '../modules/billing/billing-test-helpers';

/**
 * The tax report on invoices and credit notes made by the real flows (checkout on the built-in
 * engine, a refund from the console), with a seller in Germany registered for VAT (€25.00 a node a
 * month): each line and each total to the cent.
 */

let t: ConsoleTestApp;
let vies: Awaited<ReturnType<typeof startViesStandIn>>;
let billing: string;
let support: string;
const JANUARY = new Date('2025-01-31T10:00:00.000Z');
const FEBRUARY = new Date('2025-02-10T10:00:00.000Z');
const invoiceIds: Record<string, string> = {};
const sums = { net: 0, tax: 0 };

beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid('FR12345678901', 'Client SARL');
  t = await buildConsoleTestApp({
    VIES_URL: vies.url,
    CURRENCY: 'eur',
    SELLER_NAME: 'Vendor GmbH',
    SELLER_ADDRESS: 'Alexanderplatz 1 | 10178 Berlin',
    SELLER_COUNTRY: 'DE',
    SELLER_TAX_ID: 'DE811111111',
    SELLER_VAT_REGISTERED: 'true',
  });
  await t.addStaff('money@vendor.example', 'billing');
  await t.addStaff('help@vendor.example', 'support');
  billing = await t.signInStaff('money@vendor.example');
  support = await t.signInStaff('help@vendor.example');

  t.clock.set(JANUARY);
  const sales: Array<[string, Record<string, unknown>, number]> = [
    ['de-1', { country: 'DE', city: 'München' }, 3],
    ['de-2', { country: 'DE', city: 'Köln' }, 1],
    ['fr-consumer', { country: 'FR', city: 'Lyon' }, 2],
    ['fr-business', { country: 'FR', city: 'Paris', taxId: { type: 'eu_vat', value: 'FR12345678901' } }, 2],
    ['us', { country: 'US', region: 'MA', city: 'Boston' }, 4],
  ];
  for (const [name, details, quantity] of sales) {
    const cookie = await signIn(t, `tax-report-${name}@example.com`);
    const put = await t.app.inject({ method: 'PUT', url: '/api/billing/details', headers: { cookie }, payload: details });
    expect(put.statusCode, put.body).toBe(200);
    expect((await addCard(t, cookie)).statusCode).toBe(201);
    const res = await checkout(t, cookie, { interval: 'month', quantity });
    expect(res.statusCode, res.body).toBe(201);
    const [invoice] = await invoicesOf(t, res.json().subscription.stripeId as string);
    invoiceIds[name] = invoice!.id;
    sums.net += invoice!.lines.reduce((s, l) => s + l.amount, 0);
    sums.tax += invoice!.taxAmount;
  }
  // €11.90 of the first German invoice back to the card: a credit note of €10.00 net and €1.90 VAT.
  const refund = await t.consoleApp.inject({
    method: 'POST',
    url: `/api/console/invoices/${invoiceIds['de-1']}/refund`,
    headers: { cookie: billing },
    payload: { reason: 'Goodwill, ticket #12', amount: 1190 },
  });
  expect(refund.statusCode, refund.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
});

const report = (query: string, cookie = billing) =>
  t.consoleApp.inject({ method: 'GET', url: `/api/console/reports/tax?${query}`, headers: { cookie } });

describe('the tax report', () => {
  it('sums the period by regime, country and rate, credit notes subtracted, with totals per currency', async () => {
    const res = await report('from=2025-01-01&to=2025-01-31');
    expect(res.statusCode, res.body).toBe(200);
    const r: TaxReport = res.json();
    const base = { currency: 'eur' };
    expect(r.rows).toEqual([
      {
        ...base,
        regime: 'domestic',
        country: 'DE',
        rateBp: 1900,
        invoices: 2,
        creditNotes: 1,
        invoicedNet: 10000,
        invoicedTax: 1900,
        creditedNet: 1000,
        creditedTax: 190,
        net: 9000,
        tax: 1710,
      },
      {
        ...base,
        regime: 'eu_consumer',
        country: 'FR',
        rateBp: 2000,
        invoices: 1,
        creditNotes: 0,
        invoicedNet: 5000,
        invoicedTax: 1000,
        creditedNet: 0,
        creditedTax: 0,
        net: 5000,
        tax: 1000,
      },
      {
        ...base,
        regime: 'reverse_charge',
        country: 'FR',
        rateBp: 0,
        invoices: 1,
        creditNotes: 0,
        invoicedNet: 5000,
        invoicedTax: 0,
        creditedNet: 0,
        creditedTax: 0,
        net: 5000,
        tax: 0,
      },
      {
        ...base,
        regime: 'export',
        country: 'US',
        rateBp: 0,
        invoices: 1,
        creditNotes: 0,
        invoicedNet: 10000,
        invoicedTax: 0,
        creditedNet: 0,
        creditedTax: 0,
        net: 10000,
        tax: 0,
      },
    ]);
    expect(r.totals).toEqual([
      {
        currency: 'eur',
        taxedNet: 14000,
        tax: 2710,
        reverseChargeNet: 5000,
        exportNet: 10000,
        untaxedNet: 0,
        net: 29000,
        gross: 31710,
      },
    ]);
    // The same figures as the invoices themselves, less the credit note.
    expect(r.totals[0]!.net).toBe(sums.net - 1000);
    expect(r.totals[0]!.tax).toBe(sums.tax - 190);
  });

  it('puts a credit note in the period it was issued in, against its invoice regime and rate', async () => {
    t.clock.set(FEBRUARY);
    const refund = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/invoices/${invoiceIds['fr-consumer']}/credit`,
      headers: { cookie: billing },
      payload: { reason: 'Outage credit', amount: 600 },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const r: TaxReport = (await report('from=2025-02-01&to=2025-02-28')).json();
    expect(r.rows).toEqual([
      {
        currency: 'eur',
        regime: 'eu_consumer',
        country: 'FR',
        rateBp: 2000,
        invoices: 0,
        creditNotes: 1,
        invoicedNet: 0,
        invoicedTax: 0,
        creditedNet: 500,
        creditedTax: 100,
        net: -500,
        tax: -100,
      },
    ]);
    expect(r.totals).toMatchObject([{ currency: 'eur', taxedNet: -500, tax: -100, net: -500, gross: -600 }]);
    // January is as it was.
    expect((await report('from=2025-01-01&to=2025-01-31')).json().totals[0].gross).toBe(31710);
    // A period with nothing in it.
    expect((await report('from=2024-01-01&to=2024-12-31')).json()).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
      rows: [],
      totals: [],
    });
  });

  it('downloads as CSV, no-store, with a total line per currency, written to the staff audit log first', async () => {
    const res = await report('from=2025-01-01&to=2025-01-31&format=csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tax-report-2025-01-01-2025-01-31.csv"');
    expect(res.body.split('\r\n')).toEqual([
      'currency,regime,country,ratePercent,invoices,creditNotes,invoicedNet,invoicedTax,creditedNet,creditedTax,net,tax',
      'eur,domestic,DE,19.00,2,1,10000,1900,1000,190,9000,1710',
      'eur,eu_consumer,FR,20.00,1,0,5000,1000,0,0,5000,1000',
      'eur,reverse_charge,FR,0.00,1,0,5000,0,0,0,5000,0',
      'eur,export,US,0.00,1,0,10000,0,0,0,10000,0',
      'eur,total,,,5,1,30000,2900,1000,190,29000,2710',
      '',
    ]);
    const audit = (
      await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit?size=100', headers: { cookie: billing } })
    ).json().items as Array<{ action: string; staffEmail: string; subject: string; data: unknown }>;
    expect(audit.find((a) => a.action === 'exportTaxReport')).toMatchObject({
      staffEmail: 'money@vendor.example',
      subject: 'tax-report.csv',
      data: { filters: { from: '2025-01-01', to: '2025-01-31' } },
    });
  });

  it('is not for the support role: 403, and no export is recorded', async () => {
    const res = await report('from=2025-01-01&to=2025-01-31&format=csv', support);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it.each([
    ['format=csv', /start date \(from\)/],
    ['from=2025-01-01&format=csv', /end date \(to\)/],
    ['from=2025-1-1&to=2025-01-31&format=csv', /YYYY-MM-DD/],
    ['from=2025-02-30&to=2025-03-31&format=csv', /not a date of the calendar/],
    ['from=2025-02-01&to=2025-01-31&format=csv', /on or before/],
    ['from=2024-01-01&to=2025-01-01&format=csv', /at most 366 days/],
    ['from=2025-01-01&to=2025-01-31&format=pdf', /format/],
    ['from=2025-01-01&to=2025-01-31&format=csv&currency=eur', /currency/],
  ])('answers 400 for %s, with a clear message and nothing recorded', async (query, message) => {
    const before = (await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit', headers: { cookie: billing } })).json()
      .total as number;
    const res = await report(query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    const after = (await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit', headers: { cookie: billing } })).json()
      .total as number;
    expect(after).toBe(before);
  });

  it('takes a whole leap year (366 days)', async () => {
    expect((await report('from=2024-01-01&to=2024-12-31')).statusCode).toBe(200);
  });
});
