import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDetails, outbox } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startViesStandIn } from '../../../test/vies-stand-in';
import { addCard, checkout, flushOutbox, signIn, userIdOf } from './billing-test-helpers';

/** Billing details (GET/PUT /api/billing/details): formats per tax ID type, VIES valid/invalid/pending. */

let t: TestApp;
let vies: Awaited<ReturnType<typeof startViesStandIn>>;
beforeAll(async () => {
  vies = await startViesStandIn();
  vies.addValid('DE123456789', 'Muster GmbH');
  vies.addValid('FR12345678901', 'Exemple SARL');
  t = await buildTestApp({ VIES_URL: vies.url });
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
});

const get = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/billing/details', headers: { cookie } });
const put = (cookie: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/billing/details', headers: { cookie }, payload: payload as object });

const GERMAN = {
  legalName: 'Muster GmbH',
  country: 'DE',
  line1: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  taxId: { type: 'eu_vat', value: 'de 123 456 789' },
  recipients: ['Finance@Muster.example'],
};

async function rowOf(email: string) {
  const [row] = await t.db
    .select()
    .from(billingDetails)
    .where(eq(billingDetails.userId, await userIdOf(t, email)));
  return row;
}

describe('billing details', () => {
  it('are null until given, then saved with the VAT number checked by VIES', async () => {
    const cookie = await signIn(t, 'bd-valid@example.com');
    expect((await get(cookie)).json()).toEqual({ details: null });
    const res = await put(cookie, GERMAN);
    expect(res.statusCode).toBe(200);
    const d = res.json().details;
    expect(d).toMatchObject({
      legalName: 'Muster GmbH',
      country: 'DE',
      line1: 'Hauptstraße 1',
      line2: null,
      postalCode: '10115',
      city: 'Berlin',
      region: null,
      taxId: { type: 'eu_vat', value: 'DE123456789', status: 'valid' },
      recipients: ['finance@muster.example'],
    });
    expect(d.taxId.checkedAt).not.toBeNull();
    expect((await get(cookie)).json().details).toEqual(d);
    expect((await rowOf('bd-valid@example.com'))!.taxIdVerifiedName).toBe('Muster GmbH');
  });

  it('keep an invalid VAT number and say so (not silently dropped)', async () => {
    const cookie = await signIn(t, 'bd-invalid@example.com');
    const res = await put(cookie, { ...GERMAN, taxId: { type: 'eu_vat', value: 'DE999999999' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().details.taxId).toMatchObject({ value: 'DE999999999', status: 'invalid' });
  });

  it('save a VAT number as pending while VIES is unreachable, and check it again later through the outbox', async () => {
    const cookie = await signIn(t, 'bd-pending@example.com');
    vies.state.down = true;
    try {
      const res = await put(cookie, {
        ...GERMAN,
        country: 'FR',
        postalCode: '75001',
        city: 'Paris',
        taxId: { type: 'eu_vat', value: 'FR 12 345678901' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().details.taxId).toMatchObject({ value: 'FR12345678901', status: 'pending', checkedAt: null });
      // Still down: the job fails and stays queued (the outbox retries it with its backoff).
      await flushOutbox(t);
      expect((await rowOf('bd-pending@example.com'))!.taxIdStatus).toBe('pending');
      // A checkout goes through meanwhile.
      expect((await addCard(t, cookie)).statusCode).toBe(201);
      expect((await checkout(t, cookie)).statusCode).toBe(201);
    } finally {
      vies.state.down = false;
    }
    // The retry is due after the backoff: move the clock past it.
    t.clock.set(new Date(t.clock.now().getTime() + 60 * 60_000));
    await flushOutbox(t);
    const after = (await get(cookie)).json().details.taxId;
    expect(after).toMatchObject({ value: 'FR12345678901', status: 'valid' });
  });

  it('treat a refused connection to VIES as pending too', async () => {
    const cookie = await signIn(t, 'bd-refused@example.com');
    vies.state.refuse = true;
    try {
      const res = await put(cookie, GERMAN);
      expect(res.statusCode).toBe(200);
      expect(res.json().details.taxId.status).toBe('pending');
    } finally {
      vies.state.refuse = false;
    }
  });

  it('do not ask VIES again when the same number is saved again', async () => {
    const cookie = await signIn(t, 'bd-again@example.com');
    await put(cookie, GERMAN);
    const calls = vies.state.calls.length;
    const res = await put(cookie, { ...GERMAN, city: 'Hamburg', postalCode: '20095' });
    expect(res.json().details).toMatchObject({ city: 'Hamburg', taxId: { status: 'valid' } });
    expect(vies.state.calls.length).toBe(calls);
  });

  it('check other tax IDs for their format only, and canonicalise them', async () => {
    const cookie = await signIn(t, 'bd-formats@example.com');
    const cases: [Record<string, unknown>, string][] = [
      [{ country: 'GB', taxId: { type: 'gb_vat', value: 'GB 123 4567 89' } }, 'GB123456789'],
      [{ country: 'CH', taxId: { type: 'ch_vat', value: 'che123456789mwst' } }, 'CHE-123.456.789 MWST'],
      [{ country: 'US', region: 'CA', taxId: { type: 'us_ein', value: '12 3456789' } }, '12-3456789'],
      [{ country: 'GR', taxId: { type: 'eu_vat', value: 'EL123456789' } }, 'EL123456789'],
    ];
    for (const [body, value] of cases) {
      const res = await put(cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json().details.taxId.value).toBe(value);
    }
    expect((await get(cookie)).json().details.taxId).toMatchObject({ type: 'eu_vat', status: 'invalid' });
  });
});

describe('bad billing details', () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ['no country', { legalName: 'X' }, 'Choose the country of your billing address'],
    ['an unknown country', { country: 'QQ' }, 'Choose the country of your billing address'],
    [
      'a bad German VAT number',
      { country: 'DE', taxId: { type: 'eu_vat', value: 'DE12345' } },
      'This is not a valid VAT number format: expected DE followed by 9 digits.',
    ],
    [
      "another country's VAT number",
      { country: 'AT', taxId: { type: 'eu_vat', value: 'DE123456789' } },
      'An EU VAT number for this address starts with AT (the country of the billing address).',
    ],
    [
      'an EU VAT number outside the EU',
      { country: 'US', region: 'NY', taxId: { type: 'eu_vat', value: 'DE123456789' } },
      'An EU VAT number needs a billing address in an EU member state.',
    ],
    [
      'a bad EIN',
      { country: 'US', region: 'NY', taxId: { type: 'us_ein', value: '1234' } },
      'This is not a valid EIN format: expected 12-3456789.',
    ],
    ['a US address without a state', { country: 'US' }, 'Enter the state or region: addresses in this country need one'],
    ['a bad recipient', { country: 'DE', recipients: ['not-an-address'] }, 'Each invoice recipient must be an e-mail address'],
    [
      'too many recipients',
      { country: 'DE', recipients: ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example', 'e@x.example', 'f@x.example'] },
      'At most 5 invoice recipients',
    ],
    ['an unknown field', { country: 'DE', vat: 'x' }, ''],
  ];
  it.each(bad)('%s answers 400 and changes nothing', async (_name, body, message) => {
    const cookie = await signIn(t, 'bd-bad@example.com');
    await put(cookie, GERMAN);
    const before = await rowOf('bd-bad@example.com');
    const [jobs] = await t.db.select({ n: count() }).from(outbox);
    const res = await put(cookie, body);
    expect(res.statusCode).toBe(400);
    if (message) expect(JSON.stringify(res.json())).toContain(message);
    expect(await rowOf('bd-bad@example.com')).toEqual(before);
    expect((await t.db.select({ n: count() }).from(outbox))[0]).toEqual(jobs);
  });

  it("another customer's details are never answered", async () => {
    const a = await signIn(t, 'bd-owner@example.com');
    await put(a, GERMAN);
    const b = await signIn(t, 'bd-other@example.com');
    expect((await get(b)).json()).toEqual({ details: null });
    // B's own details do not touch A's.
    await put(b, { country: 'NL' });
    expect((await get(a)).json().details.country).toBe('DE');
  });

  it('signed out answers 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/billing/details' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/billing/details', payload: GERMAN })).statusCode).toBe(401);
  });
});
