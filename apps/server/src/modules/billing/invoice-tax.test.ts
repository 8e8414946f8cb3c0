import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startViesStandIn } from '../../../test/vies-stand-in';
import { addCard, checkout, expectUnchanged, invoicesOf, signIn } from './billing-test-helpers';
import { COUNTRY_FIRST } from './checkout';
import { EXPORT_NOTE, REVERSE_CHARGE_NOTE } from './tax/tax-engine';

/**
 * Tax on the built-in engine, with a seller in Germany registered for VAT (€25.00 a node a month):
 * each sale's net, tax and total to the cent, the parties copied onto the invoice, and gap-free
 * invoice numbers.
 */

let t: TestApp;
let vies: Awaited<ReturnType<typeof startViesStandIn>>;
const START = new Date('2025-01-31T10:00:00.000Z');

beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid('DE123456789', 'Kunde GmbH');
  vies.addValid('FR12345678901', 'Client SARL');
  t = await buildTestApp({
    VIES_URL: vies.url,
    CURRENCY: 'eur',
    SELLER_NAME: 'Vendor GmbH',
    SELLER_ADDRESS: 'Alexanderplatz 1 | 10178 Berlin',
    SELLER_COUNTRY: 'DE',
    SELLER_TAX_ID: 'DE811111111',
    SELLER_REGISTRATION: 'Amtsgericht Berlin HRB 12345',
    SELLER_VAT_REGISTERED: 'true',
  });
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
});

const put = (cookie: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/billing/details', headers: { cookie }, payload: payload as object });

/** A customer with billing details and a card, at START. */
async function customer(email: string, details: Record<string, unknown>) {
  t.clock.set(START);
  const cookie = await signIn(t, email);
  const res = await put(cookie, details);
  expect(res.statusCode, res.body).toBe(200);
  expect((await addCard(t, cookie)).statusCode).toBe(201);
  return cookie;
}

async function buy(cookie: string, quantity: number) {
  const preview = await t.app.inject({
    method: 'GET',
    url: `/api/billing/checkout/preview?interval=month&quantity=${quantity}`,
    headers: { cookie },
  });
  expect(preview.statusCode, preview.body).toBe(200);
  const res = await checkout(t, cookie, { interval: 'month', quantity });
  expect(res.statusCode, res.body).toBe(201);
  const sub = res.json().subscription;
  const [invoice] = await invoicesOf(t, sub.stripeId);
  const listed = await t.app.inject({
    method: 'GET',
    url: `/api/billing/subscriptions/${sub.stripeId}/invoices`,
    headers: { cookie },
  });
  return { preview: preview.json(), invoice: invoice!, listed: listed.json().items[0], stripeId: sub.stripeId as string };
}

const ADDRESS = { line1: 'Musterweg 5', postalCode: '80331', city: 'München' };

describe('tax on the built-in engine', () => {
  it('domestic B2C: 3 nodes, 19 % German VAT', async () => {
    const cookie = await customer('tax-b2c@example.com', { country: 'DE', ...ADDRESS });
    const { preview, invoice, listed } = await buy(cookie, 3);
    expect(preview).toMatchObject({
      subtotal: 7500,
      tax: 1425,
      total: 8925,
      taxLines: [{ rateBp: 1900, net: 7500, tax: 1425 }],
      taxNote: null,
    });
    expect(invoice).toMatchObject({ amountDue: 8925, amountPaid: 8925, taxAmount: 1425, taxRegime: 'domestic', taxNote: null });
    expect(invoice.taxBreakdown).toEqual([{ rateBp: 1900, net: 7500, tax: 1425 }]);
    expect(listed).toMatchObject({ subtotal: 7500, tax: 1425, total: 8925, amountPaid: 8925 });
    expect(invoice.seller).toMatchObject({
      name: 'Vendor GmbH',
      addressLines: ['Alexanderplatz 1', '10178 Berlin'],
      country: 'DE',
      taxId: { value: 'DE811111111' },
      registration: 'Amtsgericht Berlin HRB 12345',
    });
    expect(invoice.buyer).toMatchObject({
      name: 'Test User',
      addressLines: ['Musterweg 5', '80331 München'],
      country: 'DE',
      taxId: null,
    });
  });

  it('domestic B2B: 1 node, 19 % German VAT, the VAT number on the invoice', async () => {
    const cookie = await customer('tax-b2b-de@example.com', {
      legalName: 'Kunde GmbH',
      country: 'DE',
      ...ADDRESS,
      taxId: { type: 'eu_vat', value: 'DE123456789' },
    });
    const { preview, invoice } = await buy(cookie, 1);
    expect(preview).toMatchObject({ subtotal: 2500, tax: 475, total: 2975 });
    expect(invoice).toMatchObject({ amountDue: 2975, amountPaid: 2975, taxAmount: 475, taxRegime: 'domestic' });
    expect(invoice.buyer).toMatchObject({
      name: 'Kunde GmbH',
      contact: 'Test User',
      taxId: { type: 'eu_vat', value: 'DE123456789', status: 'valid' },
    });
  });

  it('EU cross-border B2B with a valid VAT number: reverse charge, 0 %', async () => {
    const cookie = await customer('tax-rc@example.com', {
      legalName: 'Client SARL',
      country: 'FR',
      line1: '1 rue de Rivoli',
      postalCode: '75001',
      city: 'Paris',
      taxId: { type: 'eu_vat', value: 'FR12345678901' },
    });
    const { preview, invoice, listed } = await buy(cookie, 2);
    expect(preview).toMatchObject({
      subtotal: 5000,
      tax: 0,
      total: 5000,
      taxLines: [{ rateBp: 0, net: 5000, tax: 0 }],
      taxNote: REVERSE_CHARGE_NOTE,
    });
    expect(invoice).toMatchObject({
      amountDue: 5000,
      amountPaid: 5000,
      taxAmount: 0,
      taxRegime: 'reverse_charge',
      taxNote: REVERSE_CHARGE_NOTE,
    });
    expect(listed).toMatchObject({ subtotal: 5000, tax: 0, total: 5000 });
  });

  it('the same with an invalid VAT number: French VAT at 20 %', async () => {
    const cookie = await customer('tax-invalid@example.com', {
      legalName: 'Faux SARL',
      country: 'FR',
      line1: '2 rue de Rivoli',
      postalCode: '75001',
      city: 'Paris',
      taxId: { type: 'eu_vat', value: 'FR99999999999' },
    });
    const { preview, invoice } = await buy(cookie, 2);
    expect(preview).toMatchObject({ subtotal: 5000, tax: 1000, total: 6000, taxNote: null });
    expect(invoice).toMatchObject({ amountDue: 6000, taxAmount: 1000, taxRegime: 'eu_consumer' });
    expect(invoice.buyer).toMatchObject({ taxId: { value: 'FR99999999999', status: 'invalid' } });
  });

  it('export: a buyer in the United States pays no VAT, and the invoice says why', async () => {
    const cookie = await customer('tax-export@example.com', {
      legalName: 'Acme Inc.',
      country: 'US',
      region: 'CA',
      city: 'San Francisco',
      postalCode: '94105',
      line1: '1 Market St',
      taxId: { type: 'us_ein', value: '12-3456789' },
    });
    const { preview, invoice } = await buy(cookie, 4);
    expect(preview).toMatchObject({ subtotal: 10000, tax: 0, total: 10000, taxNote: EXPORT_NOTE });
    expect(invoice).toMatchObject({ amountDue: 10000, taxAmount: 0, taxRegime: 'export', taxNote: EXPORT_NOTE });
    expect(invoice.buyer).toMatchObject({
      addressLines: ['1 Market St', '94105 San Francisco', 'CA'],
      country: 'US',
      taxId: { type: 'us_ein', value: '12-3456789' },
    });
  });

  it('a quantity change in the middle of the period: tax per prorated line, rounded half away from zero', async () => {
    const { stripeId } = await buy(await customer('tax-prorate@example.com', { country: 'DE', ...ADDRESS }), 1);
    // 21 of the period's 28 days are left: -€18.75 for the unused node, €56.25 for three.
    t.clock.set(new Date('2025-02-07T10:00:00.000Z'));
    const cookie = await signIn(t, 'tax-prorate@example.com');
    const preview = await t.app.inject({
      method: 'POST',
      url: `/api/billing/subscriptions/${stripeId}/preview`,
      headers: { cookie },
      payload: { quantity: 3 },
    });
    expect(preview.json()).toMatchObject({ subtotal: 3750, tax: 713, total: 4463, amountDue: 4463, creditApplied: 0 });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/billing/subscriptions/${stripeId}/quantity`,
      headers: { cookie },
      payload: { quantity: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [, change] = await invoicesOf(t, stripeId);
    expect(change!.lines.map((l) => l.amount)).toEqual([-1875, 5625]);
    // -356.25 → -356 and 1068.75 → 1069: 713 in all.
    expect(change).toMatchObject({ taxAmount: 713, amountDue: 4463, amountPaid: 4463 });
    expect(change!.taxBreakdown).toEqual([{ rateBp: 1900, net: 3750, tax: 713 }]);
  });

  it('VIES unreachable: the VAT number is pending, the checkout goes through, charged as for a consumer until VIES says valid', async () => {
    // Down for the whole sale: the outbox's re-check (run in the background) must not get an answer first.
    vies.state.down = true;
    try {
      const cookie = await customer('tax-pending@example.com', {
        legalName: 'Client SARL',
        country: 'FR',
        taxId: { type: 'eu_vat', value: 'FR12345678901' },
      });
      const { invoice } = await buy(cookie, 1);
      expect(invoice).toMatchObject({ amountDue: 3000, taxAmount: 500, taxRegime: 'eu_consumer' });
      expect(invoice.buyer).toMatchObject({ taxId: { status: 'pending' } });
    } finally {
      vies.state.down = false;
    }
  });

  it('changed billing details apply to the next invoice; an issued one keeps what it said', async () => {
    const { stripeId } = await buy(await customer('tax-snapshot@example.com', { country: 'DE', ...ADDRESS }), 1);
    t.clock.set(new Date('2025-02-07T10:00:00.000Z'));
    const cookie = await signIn(t, 'tax-snapshot@example.com');
    await put(cookie, { legalName: 'Neu GmbH', country: 'AT', city: 'Wien', taxId: { type: 'eu_vat', value: 'ATU12345678' } });
    const [first] = await invoicesOf(t, stripeId);
    expect(first).toMatchObject({ taxAmount: 475, buyer: { name: 'Test User', country: 'DE' } });
    await t.app.inject({
      method: 'PUT',
      url: `/api/billing/subscriptions/${stripeId}/quantity`,
      headers: { cookie },
      payload: { quantity: 2 },
    });
    const [, second] = await invoicesOf(t, stripeId);
    // Austria at 20 % (the ATU number is unknown to VIES: invalid): 21/28 of €25.00 = €18.75, tax €3.75.
    expect(second).toMatchObject({ taxAmount: 375, taxRegime: 'eu_consumer', buyer: { name: 'Neu GmbH', country: 'AT' } });
  });

  it('asks for the country before the first checkout, and changes nothing', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'tax-nocountry@example.com');
    expect((await addCard(t, cookie)).statusCode).toBe(201);
    await expectUnchanged(t, async () => {
      const res = await checkout(t, cookie, { interval: 'month', quantity: 1 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(COUNTRY_FIRST);
    });
  });

  it('numbers invoices without gaps: a declined checkout takes no number, parallel checkouts take one each', async () => {
    const before = await t.db.query.invoices.findMany({ columns: { number: true } });
    const highest = Math.max(...before.map((i) => Number(i.number.slice(4))));
    const declined = await customer('tax-declined@example.com', { country: 'DE' });
    const si = await addCard(t, declined, '4000 0000 0000 0341');
    const res = await checkout(t, declined, { interval: 'month', quantity: 1, paymentMethodId: si.json().paymentMethod.id });
    expect(res.statusCode).toBe(402);
    const cookies = [];
    for (let i = 0; i < 6; i++) cookies.push(await customer(`tax-parallel-${i}@example.com`, { country: 'DE' }));
    const results = await Promise.all(cookies.map((c) => checkout(t, c, { interval: 'month', quantity: 1 })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const after = await t.db.query.invoices.findMany({ columns: { number: true } });
    const numbers = after
      .map((i) => Number(i.number.slice(4)))
      .filter((n) => n > highest)
      .sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((n) => highest + n));
    expect(new Set(after.map((i) => i.number)).size).toBe(after.length);
    const all = after.map((i) => Number(i.number.slice(4))).sort((a, b) => a - b);
    expect(all).toEqual(all.map((_, i) => all[0]! + i));
  });
});
