import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, idOf, type ConsoleFixtures } from '../../test/console/fixtures';
import { wellFormedKey } from '../../test/fuzz/arbitraries';
import { settle } from '../../test/fuzz/db-state';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('boss@vendor.example', 'owner');
  owner = await t.signInStaff('boss@vendor.example');
  fx = await consoleFixtures(t);
});
afterAll(async () => t.close());

const act = async (url: string, payload: object) => {
  const res = await t.consoleApp.inject({ method: 'POST', url, headers: { cookie: owner }, payload });
  await settle(t);
  return res;
};
const why = (reason: string) => ({ reason });

/** The customer's own activity log, as the portal shows it to them. */
async function customerActivity(cookie: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/activity?size=100', headers: { cookie } });
  return (res.json().items as Array<{ summary: string }>).map((i) => i.summary);
}
async function staffAudit(): Promise<
  Array<{
    action: string;
    reason: string;
    staffEmail: string;
    subject: string;
    customer: { email: string; name: string | null } | null;
  }>
> {
  return (await t.consoleApp.inject({ method: 'GET', url: '/api/console/audit?size=100', headers: { cookie: owner } })).json()
    .items;
}
const validate = async (key: string) =>
  (await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: {} })).json().code as string;

describe('license and node actions', () => {
  it('suspends and resumes a license: validation follows, the customer reads "by the vendor\'s staff", the staff log keeps who and why', async () => {
    const key = await fx.license();
    const suspended = await act(`/api/console/licenses/${key}/suspend`, why('Chargeback opened'));
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(await validate(key)).toBe('SUSPENDED');
    expect((await act(`/api/console/licenses/${key}/suspend`, why('again'))).statusCode).toBe(409);

    expect((await act(`/api/console/licenses/${key}/resume`, why('Chargeback won'))).statusCode).toBe(200);
    expect(await validate(key)).not.toBe('SUSPENDED');

    const activity = await customerActivity(fx.a.cookie);
    expect(activity.some((s) => /^Suspended license .* \(by the vendor's staff\)$/.test(s))).toBe(true);
    expect(activity.join('\n')).not.toContain('boss@vendor.example');
    const audit = await staffAudit();
    expect(audit.find((e) => e.action === 'suspendLicense')).toMatchObject({
      staffEmail: 'boss@vendor.example',
      reason: 'Chargeback opened',
      subject: key,
    });
  });

  it("names the customer of each audit entry as their page does (name, else e-mail), and none for staff's own management", async () => {
    const key = await fx.license();
    await t.db.update(users).set({ fname: 'Ada', lname: 'Lovelace' }).where(eq(users.id, fx.userId));
    expect((await act(`/api/console/licenses/${key}/suspend`, why('Named in the log'))).statusCode).toBe(200);
    const audit = await staffAudit();
    expect(audit.find((e) => e.reason === 'Named in the log')?.customer).toEqual({ email: fx.a.email, name: 'Ada Lovelace' });
    await t.db.update(users).set({ fname: '', lname: '' }).where(eq(users.id, fx.userId));
    expect((await staffAudit()).find((e) => e.reason === 'Named in the log')?.customer).toEqual({
      email: fx.a.email,
      name: null,
    });
    expect(audit.filter((e) => e.action === 'staff_added').every((e) => e.customer === null)).toBe(true);
  });

  it('extends a license by N days from its expiry', async () => {
    const key = await fx.license();
    const before = (await t.app.ctx.services.licenses.listAll({ email: fx.a.email })).find((l) => l.key === key)!.expiresAt;
    const res = await act(`/api/console/licenses/${key}/extend`, { reason: 'Goodwill', days: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await t.app.ctx.services.licenses.listAll({ email: fx.a.email })).find((l) => l.key === key)!.expiresAt;
    expect(after.getTime() - before.getTime()).toBe(10 * 86_400_000);
  });

  it('releases a node, and answers 404 for a node or license that does not exist', async () => {
    const { licenseKey, nodeId } = await fx.node();
    expect((await act(`/api/console/licenses/${licenseKey}/nodes/${nodeId}/release`, why('Machine replaced'))).statusCode).toBe(
      200,
    );
    expect((await act(`/api/console/licenses/${licenseKey}/nodes/${nodeId}/release`, why('twice'))).statusCode).toBe(404);
    const unknownKey = wellFormedKey('YYYYYYYYYYYYYYYYYYYYYYY3');
    expect((await act(`/api/console/licenses/${unknownKey}/suspend`, why('x'))).statusCode).toBe(404);
  });

  it('issues a complimentary license to the customer', async () => {
    const res = await act(`/api/console/customers/${fx.userId}/licenses`, { reason: 'Partner', maxNodes: 4, days: 90 });
    expect(res.statusCode, res.body).toBe(200);
    const key = /Issued license (\S+)/.exec(res.json().message)![1]!;
    const license = (await t.app.ctx.services.licenses.listAll({ email: fx.a.email })).find((l) => l.key === key)!;
    expect(license).toMatchObject({ maxNodes: 4, subscriptionId: null, status: 'active' });
    const unknown = await act('/api/console/customers/00000000-0000-4000-8000-000000000000/licenses', {
      reason: 'x',
      maxNodes: 1,
      days: 1,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('subscription actions', () => {
  it('cancels at the period end, re-activates, and ends a subscription now (its license expires)', async () => {
    const id = await fx.subscription();
    const cancelled = await act(`/api/console/subscriptions/${id}/cancel-at-period-end`, why('Customer asked by phone'));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const subs = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/billing/subscriptions/', headers: { cookie: fx.a.cookie } })).json()
        .items as Array<{ stripeId: string; status: string; cancelAtPeriodEnd: boolean; licenseKey: string }>;
    expect((await subs()).find((s) => s.stripeId === id)!.cancelAtPeriodEnd).toBe(true);
    expect((await act(`/api/console/subscriptions/${id}/reactivate`, why('Changed their mind'))).statusCode).toBe(200);
    expect((await subs()).find((s) => s.stripeId === id)!.cancelAtPeriodEnd).toBe(false);

    expect((await act(`/api/console/subscriptions/${id}/cancel-now`, why('Fraud'))).statusCode).toBe(200);
    const ended = (await subs()).find((s) => s.stripeId === id)!;
    expect(ended).toMatchObject({ status: 'canceled', endedReason: 'ended_now' });
    expect(await validate(ended.licenseKey)).toBe('EXPIRED');
    expect((await act(`/api/console/subscriptions/${id}/cancel-now`, why('again'))).statusCode).toBe(409);
    expect((await act('/api/console/subscriptions/sub_unknown/cancel-now', why('x'))).statusCode).toBe(404);
    const activity = await customerActivity(fx.a.cookie);
    expect(activity.filter((s) => s.endsWith("(by the vendor's staff)")).length).toBeGreaterThanOrEqual(3);
  });
});

describe('a revoked license', () => {
  it('cannot be extended: 409 with a clear message, its expiry and the logs unchanged', async () => {
    const key = await fx.license();
    await t.app.ctx.services.licenses.revoke(t.db, key, 'vendor');
    const licenseOf = async () =>
      (await t.consoleApp.inject({ method: 'GET', url: `/api/console/customers/${fx.userId}`, headers: { cookie: owner } }))
        .json()
        .licenses.find((l: { licenseKey: string }) => l.licenseKey === key);
    const before = await licenseOf();
    expect(before).toMatchObject({ licenseKey: key, expiresAt: expect.any(String) });
    const audit = (await staffAudit()).length;
    const res = await act(`/api/console/licenses/${key}/extend`, { ...why('Goodwill'), days: 30 });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'This license was revoked; it cannot be extended' });
    expect(await licenseOf()).toEqual(before);
    expect((await staffAudit()).length).toBe(audit);
  });
});

describe('account actions', () => {
  it("e-mails the customer a sign-in link and ends all of the customer's sessions", async () => {
    const email = 'sessions-victim@example.com';
    const cookie = await t.signIn(email);
    const userId = await idOf(t, email);
    const before = t.mailer.messages.filter((m) => m.to === email).length;
    expect((await act(`/api/console/customers/${userId}/sign-in-link`, why('Cannot find the e-mail'))).statusCode).toBe(200);
    await t.app.ctx.services.outbox.kick();
    expect(t.mailer.messages.filter((m) => m.to === email).length).toBe(before + 1);

    expect((await act(`/api/console/customers/${userId}/end-sessions`, why('Laptop stolen'))).statusCode).toBe(200);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(401);

    // Both are in the customer's own activity, as done by the vendor's staff (signed in again to read it).
    const activity = await customerActivity(await t.signIn(email));
    expect(activity).toContain("Sent a sign-in link to the account's e-mail address (by the vendor's staff)");
    expect(activity).toContain("Signed out everywhere: every session of the account ended (by the vendor's staff)");
    expect(activity.join('\n')).not.toContain('vendor.example');
  });

  it('deletes a customer as self-service deletion does; then the customer is gone (404)', async () => {
    const email = 'leaving@example.com';
    const cookie = await t.signIn(email);
    const userId = await idOf(t, email);
    const res = await act(`/api/console/customers/${userId}/delete`, why('GDPR request by e-mail'));
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(401);
    const page = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/customers/${userId}`,
      headers: { cookie: owner },
    });
    expect(page.statusCode).toBe(404);
    expect((await act(`/api/console/customers/${userId}/delete`, why('again'))).statusCode).toBe(404);
    const audit = await staffAudit();
    expect(audit.find((e) => e.action === 'deleteCustomer')).toMatchObject({ subject: userId, reason: 'GDPR request by e-mail' });
    expect(t.mailer.messages.some((m) => m.to === email && /deleted/i.test(m.subject))).toBe(true);
  });
});
