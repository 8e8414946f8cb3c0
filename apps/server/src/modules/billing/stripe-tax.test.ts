import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDetails } from '../../db/schema/index';
import type { TestApp } from '../../../test/helpers';
import { buildStripeTestApp, type StripeTestApp } from '../../../test/stripe-test-app';
import type { StripeWireServer } from '../../../test/stripe-wire-server';
import { startViesStandIn } from '../../../test/vies-stand-in';
import { addStripeCard, signIn, userIdOf } from './billing-test-helpers';
import { ADDRESS_NOT_LOCATED } from './provider-tax';

/**
 * Stripe Tax (STRIPE_TAX=true, ADR 115) on the Stripe stand-in, whose tax is its own (Germany 19 %,
 * none without an address): every amount of tax asserted here was calculated by "Stripe".
 */
const START = new Date('2025-01-31T10:00:00.000Z');
const KEYS = { secretKey: 'sk_test_wire_tax', publishableKey: 'pk_test_wire', webhookSecret: 'whsec_test_wire' };
const GERMAN = {
  legalName: 'Muster GmbH',
  country: 'DE',
  line1: 'Alexanderplatz 1',
  postalCode: '10178',
  city: 'Berlin',
  taxId: { type: 'eu_vat', value: 'DE 123 456 789' },
};

let vies: Awaited<ReturnType<typeof startViesStandIn>>;
beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid('DE123456789', 'Muster GmbH');
  vies.addValid('DE987654321', 'Muster GmbH');
});
afterAll(() => vies.close());

/** The requests the app made to the stand-in from `from` on. */
const since = (wire: StripeWireServer, from: number) => wire.requests.slice(from);

function client(t: TestApp, cookie: string) {
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });
  return {
    call,
    details: (body: object) => call('PUT', '/api/billing/details', body),
    checkoutPreview: (quantity: number) => call('GET', `/api/billing/checkout/preview?interval=month&quantity=${quantity}`),
    checkout: (quantity: number) => call('POST', '/api/billing/intents/checkout', { interval: 'month', quantity }),
    changePreview: (id: string, quantity: number) => call('POST', `/api/billing/subscriptions/${id}/preview`, { quantity }),
    invoices: async (id: string) => (await call('GET', `/api/billing/subscriptions/${id}/invoices`)).json().items,
  };
}

describe('Stripe Tax on (STRIPE_TAX=true)', () => {
  let s: StripeTestApp;
  let t: TestApp;
  let wire: StripeWireServer;
  beforeAll(async () => {
    s = await buildStripeTestApp(KEYS, START, { STRIPE_TAX: 'true', VIES_URL: vies.url });
    ({ t, wire } = s);
  });
  afterAll(() => s.close());

  describe('a German business buys', () => {
    let cookie: string;
    let api: ReturnType<typeof client>;
    let customerId: string;
    let stripeId: string;
    beforeAll(async () => {
      t.clock.set(START);
      cookie = await signIn(t, 'tax-de@example.com');
      api = client(t, cookie);
      await addStripeCard(s, cookie);
      customerId = [...wire.customers.values()].find((c) => c.email === 'tax-de@example.com')!.id;
    });

    it('says the prices are net, with tax added at checkout', async () => {
      expect((await api.call('GET', '/api/billing/prices')).json()).toMatchObject({ taxAdded: true });
    });

    it('keeps the billing details and the VAT number on the Stripe customer', async () => {
      const from = wire.requests.length;
      const res = await api.details(GERMAN);
      expect(res.statusCode).toBe(200);
      expect(res.json().taxAddressNeeded).toBeUndefined();
      const calls = since(wire, from);
      expect(calls.find((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}/tax_ids`)?.body).toEqual({
        type: 'eu_vat',
        value: 'DE123456789',
      });
      expect(calls.find((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}`)?.body).toMatchObject({
        name: 'Muster GmbH',
        address: { country: 'DE', line1: 'Alexanderplatz 1', postal_code: '10178', city: 'Berlin' },
        tax: { validate_location: 'immediately' },
        expand: ['tax'],
      });
      expect(wire.customers.get(customerId)!.address).toMatchObject({ country: 'DE', city: 'Berlin' });
    });

    it('previews the checkout with the tax Stripe calculated: net + tax = total', async () => {
      const from = wire.requests.length;
      const res = await api.checkoutPreview(2);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        subtotal: 5000,
        tax: 950,
        total: 5950,
        taxLines: [{ rateBp: 1900, net: 5000, tax: 950 }],
        taxNote: null,
        currency: 'usd',
      });
      const asked = since(wire, from).find((r) => r.path === '/v1/invoices/create_preview')!;
      expect(asked.body).toMatchObject({
        automatic_tax: { enabled: 'true' },
        customer_details: { address: { country: 'DE' }, tax_ids: [{ type: 'eu_vat', value: 'DE123456789' }] },
        subscription_details: { items: [{ price: 'price_month', quantity: '2' }] },
      });
    });

    it('buys with automatic tax, and the first invoice shows the tax Stripe charged', async () => {
      const res = await api.checkout(2);
      expect(res.statusCode).toBe(201);
      stripeId = res.json().subscription.stripeId;
      const create = wire.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
      expect(create.body).toMatchObject({ automatic_tax: { enabled: 'true' } });
      const [first] = await api.invoices(stripeId);
      expect(first).toMatchObject({ status: 'paid', subtotal: 5000, tax: 950, total: 5950, amountPaid: 5950 });
      expect(first.subtotal + first.tax).toBe(first.total);
    });

    it('previews and charges a quantity change with Stripe’s tax', async () => {
      t.clock.set(new Date(START.getTime() + 7 * 86_400_000));
      cookie = await signIn(t, 'tax-de@example.com');
      api = client(t, cookie);
      const res = await api.changePreview(stripeId, 4);
      expect(res.statusCode).toBe(200);
      // 21 of 28 days remain: credit -3750 (tax -712.5 → -713), charge 7500 (tax 1425).
      expect(res.json()).toMatchObject({
        subtotal: 3750,
        tax: 712,
        total: 4462,
        amountDue: 4462,
        taxLines: [{ rateBp: 1900, net: 3750, tax: 712 }],
      });
      const asked = wire.requests.filter((r) => r.path === '/v1/invoices/create_preview').at(-1)!;
      expect(asked.body).toMatchObject({ automatic_tax: { enabled: 'true' } });
      const changed = await api.call('PUT', `/api/billing/subscriptions/${stripeId}/quantity`, { quantity: 4 });
      expect(changed.statusCode).toBe(200);
      const [latest] = await api.invoices(stripeId);
      expect(latest).toMatchObject({ subtotal: 3750, tax: 712, total: 4462, amountPaid: 4462 });
    });

    it('previews an interval change with Stripe’s tax', async () => {
      const res = await api.call('POST', `/api/billing/subscriptions/${stripeId}/preview`, { interval: 'year' });
      expect(res.statusCode).toBe(200);
      const p = res.json();
      expect(p.taxLines).toEqual([{ rateBp: 1900, net: p.subtotal, tax: p.tax }]);
      expect(p.tax).toBeGreaterThan(0);
      expect(p.subtotal + p.tax).toBe(p.total);
      const asked = wire.requests.filter((r) => r.path === '/v1/invoices/create_preview').at(-1)!;
      expect(asked.body).toMatchObject({
        automatic_tax: { enabled: 'true' },
        subscription_details: { items: [{ price: 'price_year' }] },
      });
    });

    it('replaces the tax ID at Stripe when it changes', async () => {
      const res = await api.details({ ...GERMAN, taxId: { type: 'eu_vat', value: 'DE987654321' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().details.taxId).toMatchObject({ value: 'DE987654321' });
      const listed = await fetch(`${wire.url}/v1/customers/${customerId}/tax_ids`, {
        headers: { authorization: `Bearer ${KEYS.secretKey}` },
      });
      expect(((await listed.json()) as { data: { value: string }[] }).data.map((x) => x.value)).toEqual(['DE987654321']);
    });

    it('refuses bad details with a 400 and changes nothing, in the portal or at Stripe', async () => {
      const before = (await api.call('GET', '/api/billing/details')).json();
      const from = wire.requests.length;
      const bad = await api.details({ ...GERMAN, taxId: { type: 'eu_vat', value: 'FR12345678901' } });
      expect(bad.statusCode).toBe(400);
      expect(since(wire, from)).toEqual([]);
      // Stripe Tax cannot place a US address without a postal code.
      const unplaced = await api.details({ country: 'US', region: 'CA', city: 'San Francisco' });
      expect(unplaced.statusCode).toBe(400);
      expect(unplaced.json().message).toBe(ADDRESS_NOT_LOCATED);
      expect(wire.customers.get(customerId)!.address).toMatchObject({ country: 'DE', city: 'Berlin' });
      expect((await api.call('GET', '/api/billing/details')).json()).toEqual(before);
      expect((await api.checkoutPreview(0)).statusCode).toBe(400);
    });
  });

  it('refuses the checkout and its preview for an address Stripe Tax cannot place, buying nothing', async () => {
    t.clock.set(START);
    const api = client(t, await signIn(t, 'tax-us@example.com'));
    // Saved before the customer was at Stripe: only the portal's own checks ran.
    expect((await api.details({ country: 'US', region: 'CA', city: 'San Francisco' })).statusCode).toBe(200);
    const preview = await api.checkoutPreview(1);
    expect(preview.statusCode).toBe(400);
    expect(preview.json().message).toBe(ADDRESS_NOT_LOCATED);
    const from = wire.requests.length;
    const bought = await api.checkout(1);
    expect(bought.statusCode).toBe(400);
    expect(bought.json().message).toBe(ADDRESS_NOT_LOCATED);
    expect(since(wire, from).some((r) => r.path === '/v1/subscriptions')).toBe(false);
    expect((await api.call('GET', '/api/billing/subscriptions')).json().items).toEqual([]);
  });

  describe('a subscription bought before Stripe Tax, whose customer has no address', () => {
    let cookie: string;
    let api: ReturnType<typeof client>;
    let stripeId: string;
    beforeAll(async () => {
      t.clock.set(START);
      cookie = await signIn(t, 'tax-old@example.com');
      api = client(t, cookie);
      await addStripeCard(s, cookie);
      expect((await api.details({ country: 'DE' })).statusCode).toBe(200);
      stripeId = (await api.checkout(1)).json().subscription.stripeId;
      // As it was before STRIPE_TAX: no billing details here, no address and no automatic tax at Stripe.
      await t.db.delete(billingDetails).where(eq(billingDetails.userId, await userIdOf(t, 'tax-old@example.com')));
      const sub = wire.subscriptions.get(stripeId)!;
      sub.automaticTax = false;
      wire.customers.get(sub.customer)!.address = null;
    });

    it('asks for the address, and previews without tax until then', async () => {
      const res = await api.call('GET', '/api/billing/details');
      expect(res.json()).toEqual({ details: null, taxAddressNeeded: true });
      const from = wire.requests.length;
      const preview = await api.changePreview(stripeId, 2);
      expect(preview.statusCode).toBe(200);
      expect(preview.json().tax).toBeUndefined();
      expect(since(wire, from).find((r) => r.path === '/v1/invoices/create_preview')!.body.automatic_tax).toBeUndefined();
    });

    it('turns automatic tax on once the address is saved', async () => {
      const from = wire.requests.length;
      const res = await api.details({ country: 'DE', line1: 'Hauptstraße 5', postalCode: '80331', city: 'München' });
      expect(res.statusCode).toBe(200);
      expect(res.json().taxAddressNeeded).toBeUndefined();
      const enable = since(wire, from).find((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeId}`)!;
      expect(enable.body).toEqual({ automatic_tax: { enabled: 'true' } });
      expect(wire.subscriptions.get(stripeId)!.automaticTax).toBe(true);
      const preview = await api.changePreview(stripeId, 2);
      expect(preview.json()).toMatchObject({ tax: expect.any(Number) });
      expect(preview.json().subtotal + preview.json().tax).toBe(preview.json().total);
    });
  });
  describe('a subscription bought before Stripe Tax, whose customer had saved billing details then', () => {
    let cookie: string;
    let api: ReturnType<typeof client>;
    let stripeId: string;
    beforeAll(async () => {
      t.clock.set(START);
      cookie = await signIn(t, 'tax-saved-before@example.com');
      api = client(t, cookie);
      await addStripeCard(s, cookie);
      expect((await api.details(GERMAN)).statusCode).toBe(200);
      stripeId = (await api.checkout(1)).json().subscription.stripeId;
      // As it was before STRIPE_TAX: the details saved here only, no address and no automatic tax at Stripe.
      await t.db
        .update(billingDetails)
        .set({ taxSyncedAt: null })
        .where(eq(billingDetails.userId, await userIdOf(t, 'tax-saved-before@example.com')));
      const sub = wire.subscriptions.get(stripeId)!;
      sub.automaticTax = false;
      wire.customers.get(sub.customer)!.address = null;
    });

    it('asks to confirm the saved address, which then reaches Stripe and turns automatic tax on', async () => {
      const asked = (await api.call('GET', '/api/billing/details')).json();
      expect(asked).toMatchObject({ details: { country: 'DE', city: 'Berlin' }, taxAddressNeeded: true });
      const from = wire.requests.length;
      const res = await api.details(GERMAN);
      expect(res.statusCode).toBe(200);
      expect(res.json().taxAddressNeeded).toBeUndefined();
      const sub = wire.subscriptions.get(stripeId)!;
      expect(wire.customers.get(sub.customer)!.address).toMatchObject({ country: 'DE', city: 'Berlin', postal_code: '10178' });
      expect(sub.automaticTax).toBe(true);
      expect(since(wire, from).some((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeId}`)).toBe(true);
      expect((await api.call('GET', '/api/billing/details')).json().taxAddressNeeded).toBeUndefined();
    });
  });

  it('does not ask a customer whose details were saved before their first card: checkout took them to Stripe', async () => {
    t.clock.set(START);
    const cookie = await signIn(t, 'tax-details-first@example.com');
    const api = client(t, cookie);
    expect((await api.details(GERMAN)).statusCode).toBe(200);
    await addStripeCard(s, cookie);
    const res = await api.checkout(1);
    expect(res.statusCode).toBe(201);
    const sub = wire.subscriptions.get(res.json().subscription.stripeId)!;
    expect(sub.automaticTax).toBe(true);
    expect((await api.call('GET', '/api/billing/details')).json().taxAddressNeeded).toBeUndefined();
  });
});

describe('Stripe Tax off (the default)', () => {
  let s: StripeTestApp;
  beforeAll(async () => {
    s = await buildStripeTestApp(KEYS, START, { VIES_URL: vies.url });
  });
  afterAll(() => s.close());

  it('sends no automatic tax, no address and no tax ID to Stripe, and adds no tax', async () => {
    const { t, wire } = s;
    const cookie = await signIn(t, 'tax-off@example.com');
    const api = client(t, cookie);
    await addStripeCard(s, cookie);
    expect((await api.call('GET', '/api/billing/prices')).json().taxAdded).toBeUndefined();
    expect((await api.details(GERMAN)).json().taxAddressNeeded).toBeUndefined();
    expect((await api.checkoutPreview(2)).json()).toMatchObject({ subtotal: 5000, tax: 0, total: 5000 });
    const stripeId = (await api.checkout(2)).json().subscription.stripeId;
    const [first] = await api.invoices(stripeId);
    expect(first).toMatchObject({ amountPaid: 5000 });
    expect(first.tax).toBeUndefined();
    expect((await api.changePreview(stripeId, 3)).json().tax).toBeUndefined();
    expect(wire.requests.some((r) => 'automatic_tax' in r.body || r.path.endsWith('/tax_ids'))).toBe(false);
    expect(wire.requests.some((r) => r.method === 'POST' && r.path.startsWith('/v1/customers/') && 'address' in r.body)).toBe(
      false,
    );
  });
});
