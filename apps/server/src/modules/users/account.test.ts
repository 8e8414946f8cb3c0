import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountExportSchema } from '@portal/contract';
import {
  auditEvents,
  customers,
  invoices,
  licenses,
  loginLinks,
  paymentMethods,
  sessions,
  subscriptions,
  users,
} from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { DELETED_CUSTOMER } from '../billing/invoices-and-export';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const DELETE_URL = '/api/users/?i_want_to_delete_my_account=true';
const MINUTE = 60_000;

const userOf = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];
const countOf = async (
  table: typeof users | typeof sessions | typeof auditEvents | typeof loginLinks | typeof invoices | typeof licenses,
) => (await t.db.select({ n: count() }).from(table))[0]!.n;

/** Everything deletion could touch, to prove a refused deletion changed nothing. */
async function snapshot() {
  return {
    users: await t.db.select().from(users).orderBy(users.id),
    sessions: await countOf(sessions),
    events: await countOf(auditEvents),
    links: await countOf(loginLinks),
    subscriptions: await t.db.select().from(subscriptions).orderBy(subscriptions.id),
    licenses: await t.db.select().from(licenses).orderBy(licenses.id),
    invoices: await t.db.select().from(invoices).orderBy(invoices.id),
  };
}

/** A customer with a card, a paid subscription (so an invoice and a license) and an activated node. */
async function customerWithPurchase(email: string, quantity = 3) {
  const cookie = await t.signIn(email);
  const row = (await userOf(email))!;
  const user = { id: row.id, email: row.email, fname: row.fname, lname: row.lname };
  const billing = t.app.ctx.services.billing;
  const { clientSecret } = await billing.createSetupIntent(user);
  const card = await billing.confirmLocalSetup(user, {
    clientSecret,
    number: '4242424242424242',
    expMonth: 12,
    expYear: 2040,
    cvc: '123',
  });
  const { subscription } = await billing.checkout(user, { interval: 'month', quantity, paymentMethodId: card.id });
  const key = subscription.licenseKey!;
  const node = await t.app.inject({
    method: 'POST',
    url: `/api/licenses/${key}/activate`,
    payload: { fingerprint: `fp-${email}`, hostname: 'pve1' },
  });
  expect(node.statusCode, node.body).toBe(201);
  return { cookie, user: row, subscription, key, card };
}

describe('GET /api/users/export', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/export' });
    expect(res.statusCode).toBe(401);
  });

  it('downloads everything the portal holds about the user, as a JSON attachment', async () => {
    const { cookie, user, subscription, key, card } = await customerWithPurchase('export@example.com');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers: { cookie },
      payload: { fname: 'Ex', lname: 'Port', company: 'Acme' },
    });
    const other = await customerWithPurchase('export-other@example.com');

    const res = await t.app.inject({ method: 'GET', url: '/api/users/export', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="customer-portal-account-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = AccountExportSchema.parse(res.json());
    expect(data.profile).toMatchObject({
      email: 'export@example.com',
      fname: 'Ex',
      lname: 'Port',
      company: 'Acme',
      onboarded: true,
    });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ method: 'link', current: true });
    expect(data.licenses).toEqual([
      expect.objectContaining({
        licenseKey: key,
        maxNodes: 3,
        nodes: [expect.objectContaining({ fingerprint: 'fp-export@example.com', hostname: 'pve1' })],
      }),
    ]);
    const billing = data.billing as {
      paymentMethods: { id: string; last4: string }[];
      subscriptions: { stripeId: string }[];
      invoices: { amountPaid: number }[];
    };
    expect(billing.subscriptions.map((s) => s.stripeId)).toEqual([subscription.stripeId]);
    expect(billing.paymentMethods).toEqual([expect.objectContaining({ id: card.id, last4: '4242' })]);
    expect(billing.invoices).toHaveLength(1);
    expect(billing.invoices[0]!.amountPaid).toBeGreaterThan(0);
    expect(data.activity.map((a) => a.action)).toEqual(expect.arrayContaining(['signed_in', 'onboarded', 'profile_updated']));
    // Cards appear without their number; nothing of the other customer appears.
    expect(res.body).not.toContain('4242424242424242');
    expect(res.body).not.toContain(other.key);
    expect(res.body).not.toContain(other.subscription.stripeId);
    expect(res.body).not.toContain('export-other@example.com');
    expect(res.body).not.toContain(user.id);
  });
});

describe('DELETE /api/users/', () => {
  it('answers 400 with its message without the confirmation, and changes nothing', async () => {
    const { cookie } = await customerWithPurchase('keepme@example.com');
    const before = await snapshot();
    for (const url of [
      '/api/users/',
      '/api/users',
      '/api/users/?i_want_to_delete_my_account=false',
      '/api/users/?i_want_to_delete_my_account=1',
    ]) {
      const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Add ?i_want_to_delete_my_account=true to confirm that the account should be deleted',
      });
    }
    const extra = await t.app.inject({ method: 'DELETE', url: `${DELETE_URL}&force=1`, headers: { cookie } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe('Unknown field in the query: force');
    expect(await snapshot()).toEqual(before);
  });

  it('answers 401 when signed out', async () => {
    for (const url of [DELETE_URL, '/api/users/']) {
      const res = await t.app.inject({ method: 'DELETE', url });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('needs a sign-in within the last 15 minutes, and changes nothing otherwise', async () => {
    const { cookie } = await customerWithPurchase('stale@example.com');
    t.clock.advance(15 * MINUTE + 1000);
    const before = await snapshot();
    const res = await t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      code: 'RECENT_SIGN_IN_REQUIRED',
      message: 'For your security, sign in again to confirm the deletion',
    });
    expect(await snapshot()).toEqual(before);
    // The session itself still works; a fresh sign-in allows the deletion.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(200);
    const fresh = await t.signIn('stale@example.com');
    expect((await t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie: fresh } })).statusCode).toBe(204);
  });

  it('cancels, revokes, anonymises and erases in one go, ends every session and clears the cookie', async () => {
    const { cookie, user, subscription, key, card } = await customerWithPurchase('gone@example.com');
    const second = await t.signIn('gone@example.com');
    const bystander = await customerWithPurchase('bystander@example.com');
    const bystanderBefore = {
      user: await userOf('bystander@example.com'),
      subscription: (
        await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, bystander.subscription.stripeId))
      )[0],
      license: (await t.db.select().from(licenses).where(eq(licenses.key, bystander.key)))[0],
    };
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.userId, user.id));
    expect(invoice!.customerEmail).toBe('gone@example.com');

    const res = await t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cleared = res.cookies.find((c) => c.name === 'portal_session');
    expect(cleared?.value).toBe('');

    // Personal data erased; sessions and the activity log went with the user row.
    expect(await userOf('gone@example.com')).toBeUndefined();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await t.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id))).toEqual([]);
    expect(
      await t.db
        .select()
        .from(loginLinks)
        .where(sql`lower(${loginLinks.email}) = 'gone@example.com'`),
    ).toEqual([]);
    expect(await t.db.select().from(customers).where(eq(customers.userId, user.id))).toEqual([]);
    // The subscription is cancelled now and the license revoked, both without an owner.
    const [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, subscription.stripeId));
    expect(sub).toMatchObject({ status: 'canceled', userId: null });
    const [lic] = await t.db.select().from(licenses).where(eq(licenses.key, key));
    expect(lic).toMatchObject({ status: 'suspended', userId: null });
    expect(lic!.revokedAt).not.toBeNull();
    const validate = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${key}/validate`,
      payload: { fingerprint: 'fp-gone@example.com' },
    });
    expect(validate.json().valid).toBe(false);
    // The card is detached; the invoice keeps its amounts for the books, anonymised.
    const [pm] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id));
    expect(pm?.detachedAt ?? null).not.toBeNull();
    const [kept] = await t.db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(kept).toMatchObject({
      userId: null,
      customerName: DELETED_CUSTOMER,
      customerEmail: null,
      amountPaid: invoice!.amountPaid,
      amountDue: invoice!.amountDue,
    });
    // No trace of the address anywhere in the audit log either.
    const leftovers = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.actor} ilike '%gone@example.com%' or ${auditEvents.summary} ilike '%gone@example.com%'`);
    expect(leftovers).toEqual([]);
    const [deletion] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, user.id));
    expect(deletion).toMatchObject({ action: 'account_deleted', userId: null });

    // Both sessions are over: replaying either cookie answers 401.
    for (const c of [cookie, second]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: c } })).statusCode).toBe(401);
    }
    // Deleting twice: the second call has no session.
    const twice = await t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie } });
    expect(twice.statusCode).toBe(401);

    // Another customer is untouched.
    expect(await userOf('bystander@example.com')).toEqual(bystanderBefore.user);
    expect(
      (await t.db.select().from(subscriptions).where(eq(subscriptions.providerId, bystander.subscription.stripeId)))[0],
    ).toEqual(bystanderBefore.subscription);
    expect((await t.db.select().from(licenses).where(eq(licenses.key, bystander.key)))[0]).toEqual(bystanderBefore.license);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: bystander.cookie } })).statusCode,
    ).toBe(200);
  });

  it('voids a sign-in link issued before the deletion: replaying it never brings the account back', async () => {
    const cookie = await t.signIn('replay@example.com');
    const pending = await t.requestLink('replay@example.com');
    expect((await t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie } })).statusCode).toBe(204);
    const users0 = await countOf(users);
    const replay = await t.app.inject({ method: 'GET', url: `/api/auth/link/${pending}` });
    expect(replay.statusCode).toBe(404);
    expect(replay.json().code).toBe('NOT_FOUND');
    expect(replay.cookies.find((c) => c.name === 'portal_session')).toBeUndefined();
    expect(await countOf(users)).toBe(users0);
    expect(await userOf('replay@example.com')).toBeUndefined();
  });

  it('lets the same address sign up again as a new, empty account', async () => {
    const { cookie, user } = await customerWithPurchase('again@example.com');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/profile',
      headers: { cookie },
      payload: { fname: 'Old', lname: 'Name', company: 'Old Co' },
    });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users?i_want_to_delete_my_account=true', headers: { cookie } }))
        .statusCode,
    ).toBe(204);

    const fresh = await t.signIn('again@example.com', { onboard: false });
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: fresh } });
    expect(session.json().user).toEqual({
      email: 'again@example.com',
      fname: '',
      lname: '',
      company: null,
      picture: null,
      onboarded: false,
    });
    const now = (await userOf('again@example.com'))!;
    expect(now.id).not.toBe(user.id);
    const listed = await t.app.inject({ method: 'GET', url: '/api/licenses/', headers: { cookie: fresh } });
    expect(listed.json()).toMatchObject({ items: [], total: 0 });
    expect(await t.app.ctx.services.billing.listSubscriptions(now.id)).toEqual([]);
    const support = await t.app.inject({ method: 'GET', url: '/api/products/support', headers: { cookie: fresh } });
    expect(support.json().plan).toBe('none');
    const activity = await t.app.inject({ method: 'GET', url: '/api/users/activity', headers: { cookie: fresh } });
    expect(activity.json().items.map((i: { action: string }) => i.action)).toEqual(['signed_in']);
  });

  it('deletes once when the request is sent twice at the same moment', async () => {
    const { cookie } = await customerWithPurchase('double@example.com');
    const answers = await Promise.all([1, 2].map(() => t.app.inject({ method: 'DELETE', url: DELETE_URL, headers: { cookie } })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 401]);
    expect(await userOf('double@example.com')).toBeUndefined();
  });
});
