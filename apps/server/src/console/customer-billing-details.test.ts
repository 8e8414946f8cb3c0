import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleCustomer } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { startViesStandIn } from '../../test/vies-stand-in';
import { addCard, checkout, invoicesOf, signIn, userIdOf } from '../modules/billing/billing-test-helpers';

/**
 * Staff edit a customer's billing details in the console (billing and owner roles, with a reason):
 * the customer's own rules and VIES check, the staff audit row and the customer's activity entry
 * in the same transaction, issued invoices unchanged and later ones made out to the new details.
 */

let t: ConsoleTestApp;
let vies: Awaited<ReturnType<typeof startViesStandIn>>;
let billing: string;
let owner: string;
let support: string;
let cookie: string;
let userId: string;

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
  await t.addStaff('boss@vendor.example', 'owner');
  await t.addStaff('help@vendor.example', 'support');
  billing = await t.signInStaff('money@vendor.example');
  owner = await t.signInStaff('boss@vendor.example');
  support = await t.signInStaff('help@vendor.example');
  t.clock.set(new Date('2025-03-03T09:00:00.000Z'));
  cookie = await signIn(t, 'client@example.fr');
  userId = await userIdOf(t, 'client@example.fr');
  const put = await t.app.inject({
    method: 'PUT',
    url: '/api/billing/details',
    headers: { cookie },
    payload: { country: 'FR', legalName: 'Client SARL', city: 'Paris' },
  });
  expect(put.statusCode, put.body).toBe(200);
  expect((await addCard(t, cookie)).statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
});

const edit = (staff: string, body: unknown, id = userId) =>
  t.consoleApp.inject({
    method: 'POST',
    url: `/api/console/customers/${id}/billing-details`,
    headers: { cookie: staff },
    payload: body as object,
  });
const page = async (staff: string): Promise<ConsoleCustomer> =>
  (await t.consoleApp.inject({ method: 'GET', url: `/api/console/customers/${userId}`, headers: { cookie: staff } })).json();
const details = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/billing/details', headers: { cookie } })).json().details as Record<
    string,
    unknown
  >;
const staffLog = async () =>
  (await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit?size=100', headers: { cookie: owner } })).json()
    .items as Array<{ action: string; reason: string; staffEmail: string; userId: string; data: Record<string, unknown> }>;

describe("a customer's billing details in the console", () => {
  it('are on the customer page, for every role (support reads them)', async () => {
    const seen = await page(support);
    expect(seen.billingDetails).toMatchObject({ legalName: 'Client SARL', country: 'FR', city: 'Paris', taxId: null });
  });

  it('are replaced by billing staff with a reason: the VAT number checked with VIES, later invoices only', async () => {
    const first = await checkout(t, cookie, { interval: 'month', quantity: 2 });
    expect(first.statusCode, first.body).toBe(201);
    const [before] = await invoicesOf(t, first.json().subscription.stripeId as string);
    expect(before).toMatchObject({ taxRegime: 'eu_consumer', taxAmount: 1000 });

    const res = await edit(billing, {
      reason: 'Customer sent their VAT number on ticket #88',
      details: {
        legalName: 'Client SARL',
        country: 'FR',
        line1: '1 rue de la Paix',
        postalCode: '75002',
        city: 'Paris',
        taxId: { type: 'eu_vat', value: 'fr 12 345 678 901' },
        recipients: ['compta@example.fr'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      message: 'The billing details were saved; invoices from now on use them. Tax ID: Valid (VIES).',
    });
    expect(vies.state.calls).toContain('FR12345678901');
    expect(await details()).toMatchObject({
      line1: '1 rue de la Paix',
      taxId: { type: 'eu_vat', value: 'FR12345678901', status: 'valid' },
      recipients: ['compta@example.fr'],
    });
    expect((await page(support)).billingDetails?.taxId).toMatchObject({ value: 'FR12345678901', status: 'valid' });

    // Who, why and what, in the staff log; the customer's activity says the vendor's staff did it.
    expect((await staffLog()).find((a) => a.action === 'updateCustomerBillingDetails')).toMatchObject({
      action: 'updateCustomerBillingDetails',
      reason: 'Customer sent their VAT number on ticket #88',
      staffEmail: 'money@vendor.example',
      userId,
      data: { country: 'FR', legalName: 'Client SARL', taxId: { type: 'eu_vat', value: 'FR12345678901', status: 'valid' } },
    });
    const activity = (await page(owner)).activity.filter((a) => a.action === 'billing_details_updated');
    expect(activity.map((a) => a.byStaff).sort()).toEqual([false, true]);

    // The invoice issued before keeps its buyer; the next sale is made out to the new details.
    const [kept] = await invoicesOf(t, first.json().subscription.stripeId as string);
    expect(kept!.buyer).toEqual(before!.buyer);
    expect(kept!.buyer?.taxId).toBeNull();
    const second = await checkout(t, cookie, { interval: 'month', quantity: 1 });
    expect(second.statusCode, second.body).toBe(201);
    const [after] = await invoicesOf(t, second.json().subscription.stripeId as string);
    expect(after).toMatchObject({ taxRegime: 'reverse_charge', taxAmount: 0 });
    expect(after!.buyer).toMatchObject({ addressLines: expect.arrayContaining(['1 rue de la Paix']) as unknown });
    expect(after!.buyer?.taxId).toMatchObject({ value: 'FR12345678901' });
  });

  it('are editable by an owner too', async () => {
    const res = await edit(owner, {
      reason: 'Address moved',
      details: { legalName: 'Client SARL', country: 'FR', city: 'Lyon', taxId: { type: 'eu_vat', value: 'FR12345678901' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await details()).toMatchObject({ city: 'Lyon', line1: null, taxId: { status: 'valid' } });
  });

  it('are read-only for support: 403, nothing changes', async () => {
    const before = await details();
    const log = (await staffLog()).length;
    const res = await edit(support, { reason: 'Trying', details: { country: 'DE' } });
    expect(res.statusCode, res.body).toBe(403);
    expect(await details()).toEqual(before);
    expect((await staffLog()).length).toBe(log);
  });

  it.each([
    [{ details: { country: 'FR' } }, /Say why/],
    [{ reason: 'Fix', details: { country: 'FR', taxId: { type: 'eu_vat', value: 'DE123456789' } } }, /starts with FR/],
    [{ reason: 'Fix', details: { country: 'US', city: 'Boston' } }, /state or region/],
    [{ reason: 'Fix', details: { country: 'ZZ' } }, /country/],
    [{ reason: 'Fix', country: 'FR' }, /./],
  ])('refuse bad input with 400 and a message, nothing changes (%#)', async (body, message) => {
    const before = await details();
    const log = (await staffLog()).length;
    const res = await edit(billing, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await details()).toEqual(before);
    expect((await staffLog()).length).toBe(log);
  });

  it('answer 404 for an unknown customer, nothing written', async () => {
    const log = (await staffLog()).length;
    const res = await edit(billing, { reason: 'Fix', details: { country: 'FR' } }, '00000000-0000-4000-8000-000000000000');
    expect(res.statusCode, res.body).toBe(404);
    expect((await staffLog()).length).toBe(log);
  });
});
