import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPENSION_MESSAGE_MAX_LENGTH } from '@portal/contract';
import { licenses, staffAudit } from '../db/schema/index';
import { stateOf } from '../modules/webhooks/webhook-events';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, type ConsoleFixtures } from '../../test/console/fixtures';
import { signIn, type Customer } from '../../test/fuzz/customers';
import { settle } from '../../test/fuzz/db-state';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let staffCookie: string;
let other: Customer;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('support@vendor.example', 'support');
  staffCookie = await t.signInStaff('support@vendor.example');
  fx = await consoleFixtures(t);
  other = await signIn(t, `suspension-other-${Date.now()}@example.com`);
});
afterAll(async () => t.close());

const MESSAGE = 'Your payment of invoice INV-0042 was reversed by your bank. Write to billing@vendor.example to settle it.';

const act = async (key: string, verb: 'suspend' | 'resume', payload: unknown) => {
  const res = await t.consoleApp.inject({
    method: 'POST',
    url: `/api/console/licenses/${key}/${verb}`,
    headers: { cookie: staffCookie },
    payload: payload as object,
  });
  await settle(t);
  return res;
};
const row = async (key: string) => (await t.db.select().from(licenses).where(eq(licenses.key, key)))[0]!;
const ownList = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/licenses/?size=100', headers: { cookie } })).json().items as Array<{
    licenseKey: string;
    status: string;
    suspensionMessage: string | null;
  }>;
const summary = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/products/licenses', headers: { cookie } })).json() as {
    suspended: string[];
    suspensionMessages: Record<string, string>;
  };
const consoleLicense = async (key: string) => {
  const page = await t.consoleApp.inject({
    method: 'GET',
    url: `/api/console/customers/${fx.userId}`,
    headers: { cookie: staffCookie },
  });
  expect(page.statusCode, page.body).toBe(200);
  return (page.json().licenses as Array<{ licenseKey: string; suspensionMessage: string | null }>).find(
    (l) => l.licenseKey === key,
  );
};
const auditRows = async (key: string) => t.db.select().from(staffAudit).where(eq(staffAudit.subject, key));

describe('a message to the customer with a suspension', () => {
  it('is stored with the suspension, shown to the owner (list, dashboard figures) and to staff, and kept in the audit row', async () => {
    const key = await fx.license();
    const res = await act(key, 'suspend', { reason: 'Chargeback opened (internal)', customerMessage: `  ${MESSAGE}  ` });
    expect(res.statusCode, res.body).toBe(200);

    expect((await row(key)).suspensionMessage).toBe(MESSAGE);
    expect((await ownList(fx.a.cookie)).find((l) => l.licenseKey === key)).toMatchObject({
      status: 'suspended',
      suspensionMessage: MESSAGE,
    });
    const figures = await summary(fx.a.cookie);
    expect(figures.suspended).toContain(key);
    expect(figures.suspensionMessages[key]).toBe(MESSAGE);
    expect(await consoleLicense(key)).toMatchObject({ suspensionMessage: MESSAGE });

    const [audit] = await auditRows(key);
    expect(audit).toMatchObject({ action: 'suspendLicense', reason: 'Chargeback opened (internal)' });
    expect(audit!.data).toEqual({ customerMessage: MESSAGE });
    // The internal reason never reaches the customer.
    const owners = JSON.stringify([await ownList(fx.a.cookie), figures]);
    expect(owners).not.toContain('Chargeback opened');
  });

  it('reaches neither another customer nor the key holder: 404 for another user, absent from validation', async () => {
    const key = await fx.license();
    expect((await act(key, 'suspend', { reason: 'Abuse report', customerMessage: MESSAGE })).statusCode).toBe(200);

    expect((await ownList(other.cookie)).some((l) => l.licenseKey === key)).toBe(false);
    const otherFigures = await summary(other.cookie);
    expect(otherFigures.suspended).toEqual([]);
    expect(otherFigures.suspensionMessages).toEqual({});
    const nodes = await t.app.inject({ method: 'GET', url: `/api/licenses/${key}/nodes`, headers: { cookie: other.cookie } });
    expect(nodes.statusCode).toBe(404);
    const file = await t.app.inject({ method: 'GET', url: `/api/licenses/${key}/file`, headers: { cookie: other.cookie } });
    expect(file.statusCode).toBe(404);
    expect(JSON.stringify([nodes.json(), file.json()])).not.toContain(MESSAGE);

    // Whoever holds the key (a node) learns it is suspended, not what staff told the owner.
    const validation = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: {} });
    expect(validation.json().code).toBe('SUSPENDED');
    expect(validation.body).not.toContain(MESSAGE);
    const activation = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${key}/activate`,
      payload: { fingerprint: 'fp-suspension-message' },
    });
    expect(activation.body).not.toContain(MESSAGE);
  });

  it('is cleared on resume, and a later suspension without one shows none', async () => {
    const key = await fx.license();
    expect((await act(key, 'suspend', { reason: 'Chargeback opened', customerMessage: MESSAGE })).statusCode).toBe(200);
    expect((await act(key, 'resume', { reason: 'Chargeback won' })).statusCode).toBe(200);
    expect((await row(key)).suspensionMessage).toBeNull();
    expect((await ownList(fx.a.cookie)).find((l) => l.licenseKey === key)).toMatchObject({
      status: 'active',
      suspensionMessage: null,
    });
    expect((await summary(fx.a.cookie)).suspensionMessages[key]).toBeUndefined();
    expect(await consoleLicense(key)).toMatchObject({ suspensionMessage: null });

    expect((await act(key, 'suspend', { reason: 'Second chargeback', customerMessage: '   ' })).statusCode).toBe(200);
    expect((await row(key)).suspensionMessage).toBeNull();
    expect((await ownList(fx.a.cookie)).find((l) => l.licenseKey === key)?.suspensionMessage).toBeNull();
    const audit = await auditRows(key);
    expect(audit.find((a) => a.reason === 'Second chargeback')?.data).toEqual({});
  });

  it('answers 400 to a bad message and changes nothing (too long, control, direction or zero-width characters, not text)', async () => {
    const key = await fx.license();
    const bad: unknown[] = [
      'x'.repeat(SUSPENSION_MESSAGE_MAX_LENGTH + 1),
      'Call us\u0007 now',
      'First line\nsecond line',
      'Pay at evil\u202etxt.exe',
      'zero\u200bwidth',
      'NUL\u0000',
      42,
      null,
    ];
    for (const customerMessage of bad) {
      const res = await act(key, 'suspend', { reason: 'Chargeback opened', customerMessage });
      expect(res.statusCode, JSON.stringify(customerMessage)).toBe(400);
    }
    const unknownField = await act(key, 'suspend', { reason: 'Chargeback opened', message: MESSAGE });
    expect(unknownField.statusCode).toBe(400);

    const after = await row(key);
    expect(after.status).toBe('active');
    expect(after.suspensionMessage).toBeNull();
    expect(await auditRows(key)).toEqual([]);
    const validation = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: {} });
    expect(validation.json().code).not.toBe('SUSPENDED');

    // At the limit it is taken.
    const longest = 'y'.repeat(SUSPENSION_MESSAGE_MAX_LENGTH);
    expect((await act(key, 'suspend', { reason: 'Chargeback opened', customerMessage: longest })).statusCode).toBe(200);
    expect((await row(key)).suspensionMessage).toBe(longest);
  });

  it("is in the license's webhook object while suspended, and gone once resumed", async () => {
    const key = await fx.license();
    expect((await act(key, 'suspend', { reason: 'Abuse report', customerMessage: MESSAGE })).statusCode).toBe(200);
    const { id } = await row(key);
    const state = () => t.db.transaction((tx) => stateOf(tx, { type: 'license.suspended', resource: 'license', id }));
    expect((await state())?.object).toMatchObject({ key, status: 'suspended', suspensionMessage: MESSAGE });
    expect((await act(key, 'resume', { reason: 'Resolved' })).statusCode).toBe(200);
    expect((await state())?.object).toMatchObject({ key, status: 'active', suspensionMessage: null });
  });
});
