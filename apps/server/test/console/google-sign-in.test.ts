import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff, staffSessions, users } from '../../src/db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import {
  authorizeAtProvider,
  startOidcProvider,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_CONSOLE_REDIRECT_URI,
  type TestOidcProvider,
} from '../oidc-provider';

/**
 * Staff sign-in with Google on the console: the portal's OpenID Connect flow against a real local
 * provider, the console's own callback and flow cookie; only active staff get a session.
 */

const FLOW_COOKIE = 'portal_console_oidc';
const cookieOf = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);

let op: TestOidcProvider;
let t: ConsoleTestApp;
beforeAll(async () => {
  op = await startOidcProvider();
  t = await buildConsoleTestApp({
    GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: TEST_CLIENT_SECRET,
    OIDC_ISSUER: op.issuer,
    SESSION_SECRET: 'console-google-test-session-secret-0123456789',
  });
  await t.addStaff('Grace@Vendor.example', 'support');
  await t.addStaff('gone@vendor.example', 'billing');
  const [gone] = await t.db.select().from(staff).where(eq(staff.email, 'gone@vendor.example'));
  await t.db.update(staff).set({ disabledAt: new Date() }).where(eq(staff.id, gone!.id));
  op.setAccount({ sub: 'g-grace', email: 'GRACE@vendor.Example', email_verified: true });
  op.setAccount({ sub: 'g-unverified', email: 'grace@vendor.example', email_verified: false });
  op.setAccount({ sub: 'g-stranger', email: 'stranger@example.com', email_verified: true });
  op.setAccount({ sub: 'g-gone', email: 'gone@vendor.example', email_verified: true });
  op.setAccount({ sub: 'g-customer', email: 'customer@example.com', email_verified: true });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

const staffSessionCount = async () => (await t.db.select({ n: count() }).from(staffSessions))[0]!.n;

/** The browser's journey on the console: start, choose `sub` at the provider, come back. */
async function consoleGoogle(sub: string) {
  const start = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/google' });
  expect(start.statusCode, start.body).toBe(302);
  const flow = cookieOf(start, FLOW_COOKIE);
  expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(cookieOf(start, 'portal_oidc')).toBeUndefined();
  const location = new URL(String(start.headers.location));
  expect(location.searchParams.get('redirect_uri')).toBe(TEST_CONSOLE_REDIRECT_URI);
  const back = await authorizeAtProvider(location.href, sub);
  expect(back.href.startsWith(TEST_CONSOLE_REDIRECT_URI)).toBe(true);
  const res = await t.consoleApp.inject({
    method: 'GET',
    url: back.pathname + back.search,
    cookies: { [FLOW_COOKIE]: flow!.value },
  });
  return { res, back, flow: flow!.value };
}

function expectRefused(res: LightMyRequestResponse, error: string) {
  expect(res.statusCode, res.body).toBe(303);
  expect(res.headers.location).toBe(`/login?error=${error}`);
  expect(cookieOf(res, 'portal_console_session')).toBeUndefined();
  expect(cookieOf(res, FLOW_COOKIE)?.value).toBe('');
}

describe('console sign-in with Google (configured)', () => {
  it('says Google is offered', async () => {
    const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/options' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ google: true });
  });

  it('signs an active staff member in (any letter case): a staff session that works on /auth/me, last sign-in recorded', async () => {
    const before = await staffSessionCount();
    const { res } = await consoleGoogle('g-grace');
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/overview');
    const session = cookieOf(res, 'portal_console_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await staffSessionCount()).toBe(before + 1);

    const me = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/auth/me',
      headers: { cookie: `portal_console_session=${session!.value}` },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().staff).toMatchObject({ email: 'grace@vendor.example', role: 'support' });
    const [row] = await t.db.select().from(staff).where(eq(staff.email, 'grace@vendor.example'));
    expect(row!.lastSignInAt).not.toBeNull();
    // The staff session is no customer session.
    const portal = await t.portal.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `portal_session=${session!.value}` },
    });
    expect(portal.json().user ?? null).toBeNull();
  });

  it('refuses a Google account that is not staff, a removed member and an unverified address: no session, nobody created', async () => {
    const staffBefore = (await t.db.select({ n: count() }).from(staff))[0]!.n;
    const usersBefore = (await t.db.select({ n: count() }).from(users))[0]!.n;
    const sessionsBefore = await staffSessionCount();
    for (const sub of ['g-stranger', 'g-gone', 'g-unverified']) {
      const { res } = await consoleGoogle(sub);
      expectRefused(res, 'google_not_staff');
    }
    expect(await staffSessionCount()).toBe(sessionsBefore);
    expect((await t.db.select({ n: count() }).from(staff))[0]!.n).toBe(staffBefore);
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBe(usersBefore);
  });

  it('refuses a replayed callback, a missing flow cookie and the portal flow cookie', async () => {
    const { res, back, flow } = await consoleGoogle('g-grace');
    expect(res.statusCode).toBe(303);
    const sessionsBefore = await staffSessionCount();
    const url = back.pathname + back.search;
    expectRefused(await t.consoleApp.inject({ method: 'GET', url, cookies: { [FLOW_COOKIE]: flow } }), 'google');
    expectRefused(await t.consoleApp.inject({ method: 'GET', url }), 'google');

    // A flow the portal sealed does not open on the console, under either cookie name.
    const portalStart = await t.portal.inject({ method: 'GET', url: '/api/auth/google/' });
    const portalFlow = cookieOf(portalStart, 'portal_oidc')!.value;
    expectRefused(await t.consoleApp.inject({ method: 'GET', url, cookies: { [FLOW_COOKIE]: portalFlow } }), 'google');
    expect(await staffSessionCount()).toBe(sessionsBefore);
  });

  it("leaves the customers' Google sign-in as it was", async () => {
    const start = await t.portal.inject({ method: 'GET', url: '/api/auth/google/' });
    expect(start.statusCode).toBe(302);
    const flow = cookieOf(start, 'portal_oidc')!.value;
    expect(cookieOf(start, FLOW_COOKIE)).toBeUndefined();
    const back = await authorizeAtProvider(String(start.headers.location), 'g-customer');
    expect(back.pathname).toBe('/api/auth/google/callback');
    const res = await t.portal.inject({ method: 'GET', url: back.pathname + back.search, cookies: { portal_oidc: flow } });
    expect(res.statusCode, res.body).toBe(303);
    const session = cookieOf(res, 'portal_session');
    expect(session).toBeTruthy();
    const me = await t.portal.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `portal_session=${session!.value}` },
    });
    expect(me.json().user.email).toBe('customer@example.com');
    // The customer's session is nothing on the console.
    const consoleMe = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/auth/me',
      headers: { cookie: `portal_console_session=${session!.value}` },
    });
    expect(consoleMe.statusCode).toBe(401);
  });
});

describe('console sign-in with Google (not configured)', () => {
  let plain: ConsoleTestApp;
  beforeAll(async () => {
    plain = await buildConsoleTestApp();
  });
  afterAll(() => plain?.close());

  it('says Google is not offered, and its routes answer 404', async () => {
    const options = await plain.consoleApp.inject({ method: 'GET', url: '/api/console/auth/options' });
    expect(options.json()).toEqual({ google: false });
    for (const url of ['/api/console/auth/google', '/api/console/auth/google/callback?code=x&state=y']) {
      const res = await plain.consoleApp.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      expect(cookieOf(res, FLOW_COOKIE)).toBeUndefined();
    }
  });
});
