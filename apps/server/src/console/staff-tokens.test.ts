import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedStaffToken } from '@portal/contract';
import { createToken, bearer } from '../../test/api-token-helpers';
import { buildConsoleTestApp, CONSOLE_ORIGIN, type ConsoleTestApp } from '../../test/console-helpers';
import { customerWithEverything } from '../../test/fuzz/customers';
import type { Customer } from '../../test/fuzz/customers';
import { staffApiTokens } from '../db/schema/index';
import { sha256 } from '../lib/crypto';

let t: ConsoleTestApp;
let owner: string;
let customer: Customer;
const reason = { reason: 'Nightly CRM sync' };

beforeAll(async () => {
  // A small per-token limit, so the test of it needs few requests.
  t = await buildConsoleTestApp({ RATE_LIMIT_API_TOKEN: '8' });
  await t.addStaff('owner@vendor.example', 'owner');
  owner = await t.signInStaff('owner@vendor.example');
  customer = await customerWithEverything(t, 'tokens-customer@example.com');
});
afterAll(async () => t.close());

const asOwner = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.consoleApp.inject({ method, url, headers: { cookie: owner }, ...(payload !== undefined ? { payload } : {}) });

async function create(
  role: 'owner' | 'support' | 'billing',
  name = `${role} script`,
  cookie = owner,
): Promise<CreatedStaffToken> {
  const res = await t.consoleApp.inject({
    method: 'POST',
    url: '/api/console/tokens',
    headers: { cookie },
    payload: { name, role, expiresInDays: 30, ...reason },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedStaffToken>();
}

const auditOf = async () =>
  (await asOwner('GET', '/api/console/audit?size=5')).json<{
    items: Array<{ action: string; staffEmail: string; reason: string; subject: string | null }>;
  }>().items;

describe('owners create, list and revoke staff API tokens', () => {
  it('shows the secret once, keeps only its hash, lists it with its last use, and revokes it', async () => {
    t.clock.advance(1000);
    const created = await create('support', 'Helpdesk bot');
    expect(created.secret).toMatch(/^stk_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({
      name: 'Helpdesk bot',
      role: 'support',
      hint: created.secret.slice(0, 8),
      createdBy: 'owner@vendor.example',
      lastUsedAt: null,
    });
    expect(new Date(created.token.expiresAt).getTime() - t.clock.now().getTime()).toBe(30 * 86_400_000);
    const [stored] = await t.db.select().from(staffApiTokens).where(eq(staffApiTokens.id, created.token.id));
    expect(stored!.tokenHash).toBe(sha256(created.secret));
    expect(JSON.stringify(stored)).not.toContain(created.secret);

    const listed = await asOwner('GET', '/api/console/tokens');
    expect(JSON.stringify(listed.json())).not.toContain(created.secret);
    expect(listed.json().items[0]).toMatchObject({ id: created.token.id, lastUsedAt: null });

    expect(
      (await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: bearer(created.secret) })).statusCode,
    ).toBe(200);
    const used = (await asOwner('GET', '/api/console/tokens')).json().items[0];
    expect(used.lastUsedAt).not.toBeNull();

    t.clock.advance(1000);
    expect((await asOwner('DELETE', `/api/console/tokens/${created.token.id}`, reason)).statusCode).toBe(204);
    expect((await asOwner('DELETE', `/api/console/tokens/${created.token.id}`, reason)).statusCode).toBe(404);
    const revoked = await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: bearer(created.secret) });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['www-authenticate']).toContain('error="invalid_token"');
    expect((await asOwner('GET', '/api/console/tokens')).json().items.map((i: { id: string }) => i.id)).not.toContain(
      created.token.id,
    );

    expect((await auditOf()).slice(0, 2).map((e) => [e.action, e.staffEmail, e.reason, e.subject])).toEqual([
      ['staff_token_revoked', 'owner@vendor.example', 'Nightly CRM sync', 'Helpdesk bot'],
      ['staff_token_created', 'owner@vendor.example', 'Nightly CRM sync', 'Helpdesk bot'],
    ]);
  });

  it('refuses bad input with 400 and creates nothing: no expiry, too long an expiry, no reason, no name', async () => {
    const before = (await asOwner('GET', '/api/console/tokens')).json().items.length;
    for (const payload of [
      { name: 'x', role: 'support', ...reason },
      { name: 'x', role: 'support', expiresInDays: 366, ...reason },
      { name: 'x', role: 'support', expiresInDays: null, ...reason },
      { name: 'x', role: 'support', expiresInDays: 30 },
      { name: ' ', role: 'support', expiresInDays: 30, ...reason },
      { name: 'x', role: 'admin', expiresInDays: 30, ...reason },
    ]) {
      const res = await asOwner('POST', '/api/console/tokens', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await asOwner('GET', '/api/console/tokens')).json().items.length).toBe(before);
    const tooLong = await asOwner('POST', '/api/console/tokens', { name: 'x', role: 'support', expiresInDays: 366, ...reason });
    expect(tooLong.json().message).toContain('365 days');
  });
});

describe('a request with a staff API token', () => {
  it('acts with its role, needs the reason the UI asks for, and lands in the audit log under the token name', async () => {
    const { secret } = await create('support', 'Provisioning');
    const key = customer.ids.licenseKey!;
    const noReason = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/suspend`,
      headers: bearer(secret),
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    t.clock.advance(1000);
    const suspended = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/suspend`,
      headers: bearer(secret),
      payload: { reason: 'Ticket #12' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const [entry] = await auditOf();
    expect(entry).toMatchObject({
      action: expect.stringContaining('suspend'),
      staffEmail: 'API token "Provisioning"',
      reason: 'Ticket #12',
    });
    // Billing's actions stay billing's: 403 for a support token.
    const cancel = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/subscriptions/${customer.ids.stripeId}/cancel-now`,
      headers: bearer(secret),
      payload: reason,
    });
    expect(cancel.statusCode).toBe(403);
    await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/resume`,
      headers: bearer(secret),
      payload: { reason: 'Ticket #12 solved' },
    });
  });

  it('is not held to the cross-site rules (no cookie is read), while a cookie request still is', async () => {
    const { secret } = await create('support', 'Cross-site check');
    const key = customer.ids.licenseKey!;
    const headers = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const byToken = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/extend`,
      headers: { ...headers, ...bearer(secret) },
      payload: { reason: 'Goodwill', days: 1 },
    });
    expect(byToken.statusCode, byToken.body).toBe(200);
    const byCookie = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/extend`,
      headers: { ...headers, cookie: owner },
      payload: { reason: 'Goodwill', days: 1 },
    });
    expect(byCookie.statusCode).toBe(403);
    expect(byCookie.json().code).toBe('CROSS_SITE_REQUEST');
    // And the same origin's requests with the cookie work as before.
    const sameSite = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/licenses/${key}/extend`,
      headers: { origin: CONSOLE_ORIGIN, cookie: owner },
      payload: { reason: 'Goodwill', days: 1 },
    });
    expect(sameSite.statusCode).toBe(200);
  });

  it('never takes a session cookie as a token nor a token as a cookie; a bearer request ignores the cookie beside it', async () => {
    const { secret } = await create('owner', 'Cookie check');
    const session = owner.split('=')[1]!;
    const cookieAsBearer = await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: bearer(session) });
    expect(cookieAsBearer.statusCode).toBe(401);
    const tokenAsCookie = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/overview',
      headers: { cookie: `portal_console_session=${secret}` },
    });
    expect(tokenAsCookie.statusCode).toBe(401);
    // A bad token with a good cookie: the token alone counts.
    const both = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/staff',
      headers: { cookie: owner, ...bearer('stk_unknown') },
    });
    expect(both.statusCode).toBe(401);
    // A good owner token on staff management, with the owner's cookie beside it: 403, not the cookie's 200.
    const staffByToken = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/staff',
      headers: { cookie: owner, ...bearer(secret) },
    });
    expect(staffByToken.statusCode).toBe(403);
  });

  it('never manages staff or tokens, nor takes a second-factor step, even as owner', async () => {
    const { secret } = await create('owner', 'Owner script');
    for (const [method, url, payload] of [
      ['GET', '/api/console/staff', undefined],
      ['POST', '/api/console/staff', { email: 'x@vendor.example', role: 'owner', ...reason }],
      ['GET', '/api/console/tokens', undefined],
      ['POST', '/api/console/tokens', { name: 'child', role: 'owner', expiresInDays: 30, ...reason }],
      ['POST', '/api/console/auth/second-factor/code', { code: '123456' }],
      ['GET', '/api/console/auth/me', undefined],
    ] as const) {
      const res = await t.consoleApp.inject({ method, url, headers: bearer(secret), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toContain('API tokens cannot be used for this');
    }
    expect(
      (await t.consoleApp.inject({ method: 'GET', url: '/api/console/customers', headers: bearer(secret) })).statusCode,
    ).toBe(200);
  });

  it('works on the console listener only; a customer token never on the console', async () => {
    const { secret } = await create('owner', 'Listener check');
    for (const url of ['/api/licenses/', '/api/users/tokens', '/api/downloads/iso']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(secret) });
      expect(res.statusCode, url).toBe(401);
    }
    const pat = await createToken(t, customer.cookie, ['licenses:read', 'billing:read']);
    for (const url of ['/api/console/overview', '/api/console/customers', '/api/console/docs']) {
      const res = await t.consoleApp.inject({ method: 'GET', url, headers: bearer(pat.secret) });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('is rate limited per token (RATE_LIMIT_API_TOKEN a minute)', async () => {
    const a = await create('billing', 'Busy script');
    const b = await create('billing', 'Quiet script');
    const get = (secret: string) => t.consoleApp.inject({ method: 'GET', url: '/api/console/invoices', headers: bearer(secret) });
    for (let i = 0; i < 8; i++) expect((await get(a.secret)).statusCode).toBe(200);
    const limited = await get(a.secret);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
    expect((await get(b.secret)).statusCode).toBe(200);
  });

  it('expires at its expiry', async () => {
    const { secret } = await create('billing', 'Short-lived');
    const get = () => t.consoleApp.inject({ method: 'GET', url: '/api/console/subscriptions', headers: bearer(secret) });
    expect((await get()).statusCode).toBe(200);
    // Everyone's staff sessions would idle out too: sign in again after moving the clock.
    t.clock.advance(30 * 86_400_000 + 1000);
    expect((await get()).statusCode).toBe(401);
    owner = await t.signInStaff('owner@vendor.example');
  });
});

describe('the owner who created a token', () => {
  it('losing the owner role or being removed revokes the tokens they created, and the audit entry names them', async () => {
    await t.addStaff('second-owner@vendor.example', 'owner');
    const second = await t.signInStaff('second-owner@vendor.example');
    const kept = await create('support', 'Kept', owner);
    const theirs = await create('support', 'Theirs', second);
    const id = (await asOwner('GET', '/api/console/staff'))
      .json()
      .items.find((s: { email: string }) => s.email === 'second-owner@vendor.example').id;
    t.clock.advance(1000);
    const demoted = await t.consoleApp.inject({
      method: 'PATCH',
      url: `/api/console/staff/${id}`,
      headers: { cookie: owner },
      payload: { role: 'support', reason: 'Moved to support' },
    });
    expect(demoted.statusCode).toBe(200);
    const get = (secret: string) =>
      t.consoleApp.inject({ method: 'GET', url: '/api/console/search?q=tokens', headers: bearer(secret) });
    expect((await get(theirs.secret)).statusCode).toBe(401);
    expect((await get(kept.secret)).statusCode).toBe(200);
    const [entry] = await auditOf();
    expect(entry).toMatchObject({ action: 'staff_role_changed' });
    expect(JSON.stringify(entry)).toContain('Theirs');

    // Removal does it too.
    const promoted = await t.consoleApp.inject({
      method: 'PATCH',
      url: `/api/console/staff/${id}`,
      headers: { cookie: owner },
      payload: { role: 'owner', reason: 'Back to owner' },
    });
    expect(promoted.statusCode).toBe(200);
    const again = await create('support', 'Theirs again', await t.signInStaff('second-owner@vendor.example'));
    expect((await asOwner('DELETE', `/api/console/staff/${id}`, { reason: 'Left' })).statusCode).toBe(204);
    expect((await get(again.secret)).statusCode).toBe(401);
    expect((await get(kept.secret)).statusCode).toBe(200);
  });
});
