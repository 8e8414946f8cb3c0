import { createServer } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions, users } from '../../db/schema/index';
import { flowStateCodec } from '../../providers/identity';
import { buildGoogleTestApp, type GoogleTestApp } from '../../../test/google-test-app';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { authorizeAtProvider, DENY_HINT, TEST_REDIRECT_URI, type TestOidcProvider } from '../../../test/oidc-provider';

const SESSION_SECRET = 'google-test-session-secret-0123456789abcdef';
const FLOW_COOKIE = 'portal_oidc';

let google: GoogleTestApp | undefined;
let op: TestOidcProvider;
let t: TestApp;
beforeAll(async () => {
  google = await buildGoogleTestApp(SESSION_SECRET);
  ({ op, t } = google);
});
afterAll(() => google?.close());

const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]!.n;
const sessionCount = async () => (await t.db.select({ n: count() }).from(sessions))[0]!.n;
const userByEmail = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];
const cookieOf = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name);

/** GET /api/auth/google/: answers the provider URL and the sealed flow cookie. */
async function start(to?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: to ? `/api/auth/google/?to=${encodeURIComponent(to)}` : '/api/auth/google/',
  });
  expect(res.statusCode, res.body).toBe(302);
  const flow = cookieOf(res, FLOW_COOKIE);
  expect(flow?.value).toBeTruthy();
  return { location: String(res.headers.location), flow: flow!.value };
}

/** Our callback, as the browser would open it after the provider, with the given flow cookie. */
function callback(url: URL, flow: string | undefined) {
  return t.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    ...(flow === undefined ? {} : { cookies: { [FLOW_COOKIE]: flow } }),
  });
}

/** The whole browser journey: start, choose `loginHint` at the provider, come back. */
async function signInWithGoogle(loginHint: string, to?: string) {
  const { location, flow } = await start(to);
  const back = await authorizeAtProvider(location, loginHint);
  const res = await callback(back, flow);
  return { res, back, flow };
}

async function expectSignedIn(res: LightMyRequestResponse, landing: string) {
  expect(res.statusCode, res.body).toBe(303);
  expect(res.headers.location).toBe(landing);
  const session = cookieOf(res, 'portal_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  const me = await t.app.inject({
    method: 'GET',
    url: '/api/auth/session',
    headers: { cookie: `portal_session=${session!.value}` },
  });
  expect(me.statusCode).toBe(200);
  return me.json().user as { email: string; fname: string; lname: string; picture: string | null; onboarded: boolean };
}

function expectRefused(res: LightMyRequestResponse, error: string) {
  expect(res.statusCode, res.body).toBe(303);
  expect(String(res.headers.location)).toMatch(new RegExp(`^/login\\?error=${error}(&|$)`));
  expect(cookieOf(res, 'portal_session')).toBeUndefined();
  // The flow cookie is cleared on every callback, successful or not.
  expect(cookieOf(res, FLOW_COOKIE)?.value).toBe('');
}

describe('GET /api/auth/google/', () => {
  it('redirects to the provider with PKCE S256, state and nonce, kept in a sealed 10-minute cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google/?to=/app/licenses' });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin + url.pathname).toBe(`${op.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'test-client',
      response_type: 'code',
      redirect_uri: TEST_REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const flow = cookieOf(res, FLOW_COOKIE)!;
    expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 600 });
    // Neither the state nor the return path can be read from the cookie.
    const raw = Buffer.from(flow.value, 'base64url').toString('latin1');
    expect(raw).not.toContain(url.searchParams.get('state'));
    expect(raw).not.toContain('/app/licenses');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers without the trailing slash too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toMatch(new RegExp(`^${op.issuer}/auth\\?`));
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['an off-site URL', 'https://evil.example/'],
    ['a backslash path', '/\\evil.example'],
  ])('refuses %s as `to` with 400, sets no cookie and changes nothing', async (_name, to) => {
    const [u, s] = [await userCount(), await sessionCount()];
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/google/?to=${encodeURIComponent(to)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The return path must be a path on this site, such as /app/licenses',
      issues: [{ path: ['to'], message: 'The return path must be a path on this site, such as /app/licenses' }],
    });
    expect(res.cookies).toHaveLength(0);
    expect([await userCount(), await sessionCount()]).toEqual([u, s]);
  });

  it('refuses unknown query parameters with 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google/?to=/app&prompt=none' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unknown field in the query: prompt');
  });

  it('discovers the provider once and reuses it', async () => {
    await start();
    await start();
    expect(op.requests.filter((r) => r === 'GET /.well-known/openid-configuration')).toHaveLength(1);
  });
});

describe('GET /api/auth/google/callback', () => {
  it('signs a new person up: creates the user from the claims, not onboarded, and lands on `to`', async () => {
    op.setAccount({
      sub: 'new-sub',
      email: 'New.Person@Example.com',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
      picture: 'https://pictures.example/ada.png',
    });
    const before = await userCount();
    const { res } = await signInWithGoogle('new-sub', '/app/licenses');
    const me = await expectSignedIn(res, '/app/licenses');
    expect(me).toMatchObject({
      email: 'new.person@example.com',
      fname: 'Ada',
      lname: 'Lovelace',
      picture: 'https://pictures.example/ada.png',
      onboarded: false,
    });
    expect(await userCount()).toBe(before + 1);
    const user = (await userByEmail('new.person@example.com'))!;
    expect(user.identitySubject).toBe(`${op.issuer}|new-sub`);
    const [session] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session!.method).toBe('google');
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id));
    expect(audit.map((a) => [a.action, a.summary])).toEqual([['signed_in', 'Signed in with Google']]);
  });

  it('lands on /app/dashboard when no `to` was given', async () => {
    op.setAccount({ sub: 'plain-sub', email: 'plain@example.com', email_verified: true });
    const { res } = await signInWithGoogle('plain-sub');
    const me = await expectSignedIn(res, '/app/dashboard');
    expect(me).toMatchObject({ email: 'plain@example.com', fname: '', lname: '', picture: null });
  });

  it('finds a returning person by issuer and subject, even after their e-mail changed at the provider', async () => {
    op.setAccount({ sub: 'return-sub', email: 'return@example.com', email_verified: true, given_name: 'Ret' });
    await expectSignedIn((await signInWithGoogle('return-sub')).res, '/app/dashboard');
    const first = (await userByEmail('return@example.com'))!;
    const before = await userCount();

    op.setAccount({ sub: 'return-sub', email: 'renamed@example.com', email_verified: false, given_name: 'Changed' });
    const me = await expectSignedIn((await signInWithGoogle('return-sub')).res, '/app/dashboard');
    expect(me).toMatchObject({ email: 'return@example.com', fname: 'Ret' });
    expect(await userCount()).toBe(before);
    expect(await userByEmail('renamed@example.com')).toBeUndefined();
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, first.id))).length).toBe(2);
  });

  it('links an existing e-mail account when the provider has verified the address', async () => {
    await t.signIn('linked@example.com');
    const existing = (await userByEmail('linked@example.com'))!;
    expect(existing.identitySubject).toBeNull();
    const before = await userCount();

    op.setAccount({
      sub: 'linked-sub',
      email: 'Linked@Example.com',
      email_verified: true,
      given_name: 'Other',
      picture: 'https://pictures.example/l.png',
    });
    const me = await expectSignedIn((await signInWithGoogle('linked-sub', '/app/billing')).res, '/app/billing');
    // The person's own profile wins; only the missing picture is filled in.
    expect(me).toMatchObject({
      email: 'linked@example.com',
      fname: 'Test',
      lname: 'User',
      onboarded: true,
      picture: 'https://pictures.example/l.png',
    });
    expect(await userCount()).toBe(before);
    const linked = (await userByEmail('linked@example.com'))!;
    expect(linked.id).toBe(existing.id);
    expect(linked.identitySubject).toBe(`${op.issuer}|linked-sub`);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, existing.id), eq(auditEvents.action, 'identity_linked')));
    expect(events).toHaveLength(1);
  });

  it('refuses to link an existing account when the provider has not verified the address', async () => {
    await t.signIn('unverified@example.com');
    const [u, s] = [await userCount(), await sessionCount()];
    op.setAccount({ sub: 'unverified-sub', email: 'unverified@example.com', email_verified: false });
    const { res } = await signInWithGoogle('unverified-sub', '/app/licenses');
    expectRefused(res, 'google_email_unverified');
    expect(res.headers.location).toBe('/login?error=google_email_unverified&to=%2Fapp%2Flicenses');
    expect((await userByEmail('unverified@example.com'))!.identitySubject).toBeNull();
    expect([await userCount(), await sessionCount()]).toEqual([u, s]);
  });

  it('creates no account for an address the provider has not verified', async () => {
    const [u, s] = [await userCount(), await sessionCount()];
    op.setAccount({ sub: 'fresh-unverified', email: 'fresh-unverified@example.com', email_verified: false });
    expectRefused((await signInWithGoogle('fresh-unverified')).res, 'google_email_unverified');
    expect(await userByEmail('fresh-unverified@example.com')).toBeUndefined();
    expect([await userCount(), await sessionCount()]).toEqual([u, s]);
  });

  it('refuses a second Google identity for an account already linked to another', async () => {
    op.setAccount({ sub: 'owner-sub', email: 'owner@example.com', email_verified: true });
    await expectSignedIn((await signInWithGoogle('owner-sub')).res, '/app/dashboard');
    const s = await sessionCount();
    op.setAccount({ sub: 'intruder-sub', email: 'owner@example.com', email_verified: true });
    expectRefused((await signInWithGoogle('intruder-sub')).res, 'google_account_conflict');
    expect((await userByEmail('owner@example.com'))!.identitySubject).toBe(`${op.issuer}|owner-sub`);
    expect(await sessionCount()).toBe(s);
  });

  it('refuses a callback whose state belongs to another flow', async () => {
    op.setAccount({ sub: 'csrf-sub', email: 'csrf@example.com', email_verified: true });
    const mine = await start();
    const theirs = await start();
    const theirCallback = await authorizeAtProvider(theirs.location, 'csrf-sub');
    const [u, s] = [await userCount(), await sessionCount()];
    expectRefused(await callback(theirCallback, mine.flow), 'google');
    expect([await userCount(), await sessionCount()]).toEqual([u, s]);
    expect(await userByEmail('csrf@example.com')).toBeUndefined();
  });

  it('refuses a callback whose state was altered', async () => {
    op.setAccount({ sub: 'state-sub', email: 'state@example.com', email_verified: true });
    const { location, flow } = await start();
    const back = await authorizeAtProvider(location, 'state-sub');
    back.searchParams.set('state', 'A'.repeat(43));
    expectRefused(await callback(back, flow), 'google');
    expect(await userByEmail('state@example.com')).toBeUndefined();
  });

  it('refuses an ID token whose nonce does not match the flow', async () => {
    op.setAccount({ sub: 'nonce-sub', email: 'nonce@example.com', email_verified: true });
    const { location, flow } = await start();
    const back = await authorizeAtProvider(location, 'nonce-sub');
    // A validly sealed cookie with the right state and verifier but another nonce: only the ID
    // token's nonce check can catch it.
    const codec = flowStateCodec(SESSION_SECRET);
    const opened = codec.open(flow)!;
    expect(opened.state).toBe(back.searchParams.get('state'));
    const [u, s] = [await userCount(), await sessionCount()];
    expectRefused(await callback(back, codec.seal({ ...opened, nonce: 'another-nonce' })), 'google');
    expect([await userCount(), await sessionCount()]).toEqual([u, s]);
  });

  it('refuses a tampered or missing flow cookie', async () => {
    op.setAccount({ sub: 'tamper-sub', email: 'tamper@example.com', email_verified: true });
    const { location, flow } = await start();
    const back = await authorizeAtProvider(location, 'tamper-sub');
    const flipped = flow.slice(0, 30) + (flow[30] === 'A' ? 'B' : 'A') + flow.slice(31);
    expectRefused(await callback(back, flipped), 'google');
    expectRefused(await callback(back, undefined), 'google');
    expectRefused(await callback(back, 'not-a-cookie'), 'google');
    expect(await userByEmail('tamper@example.com')).toBeUndefined();
  });

  it('uses the flow cookie once: replaying the callback fails', async () => {
    op.setAccount({ sub: 'replay-sub', email: 'replay@example.com', email_verified: true });
    const { res, back, flow } = await signInWithGoogle('replay-sub');
    await expectSignedIn(res, '/app/dashboard');
    const s = await sessionCount();
    expectRefused(await callback(back, flow), 'google');
    expect(await sessionCount()).toBe(s);
  });

  it('refuses a flow older than 10 minutes', async () => {
    op.setAccount({ sub: 'slow-sub', email: 'slow@example.com', email_verified: true });
    const { location, flow } = await start('/app/support');
    const back = await authorizeAtProvider(location, 'slow-sub');
    t.clock.advance(10 * 60_000 + 1000);
    const res = await callback(back, flow);
    expectRefused(res, 'google');
    expect(res.headers.location).toBe('/login?error=google&to=%2Fapp%2Fsupport');
    expect(await userByEmail('slow@example.com')).toBeUndefined();
  });

  it('sends the person back to /login when they cancel at the provider (access_denied)', async () => {
    const { location, flow } = await start('/app/licenses');
    const back = await authorizeAtProvider(location, DENY_HINT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const s = await sessionCount();
    const res = await callback(back, flow);
    expectRefused(res, 'google');
    expect(res.headers.location).toBe('/login?error=google&to=%2Fapp%2Flicenses');
    expect(await sessionCount()).toBe(s);
  });

  it('refuses ?error=access_denied without any code', async () => {
    const { flow } = await start();
    expectRefused(await callback(new URL(`${TEST_REDIRECT_URI}?error=access_denied`), flow), 'google');
  });
});

describe('when the provider cannot be reached', () => {
  it('redirects to /login?error=google_unavailable instead of failing with 500', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const down = await buildTestApp({
      GOOGLE_CLIENT_ID: 'test-client',
      GOOGLE_CLIENT_SECRET: 'test-secret',
      OIDC_ISSUER: `http://127.0.0.1:${closedPort}`,
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/auth/google/?to=/app/licenses' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/login?error=google_unavailable&to=%2Fapp%2Flicenses');
      expect(res.cookies).toHaveLength(0);
    } finally {
      await down.close();
    }
  });
});

describe('when Google is not configured', () => {
  it('answers 404 with the error shape on every Google route', async () => {
    const off = await buildTestApp();
    try {
      for (const url of [
        '/api/auth/google/',
        '/api/auth/google',
        '/api/auth/google/?to=/app',
        '/api/auth/google/callback?code=x&state=y',
      ]) {
        const res = await off.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining('Sign-in with Google is not set up') });
      }
      expect((await off.app.inject({ method: 'GET', url: '/api/config' })).json().googleEnabled).toBe(false);
    } finally {
      await off.close();
    }
  });
});

describe('deployment settings', () => {
  const googleEnv = () => ({ GOOGLE_CLIENT_ID: 'test-client', GOOGLE_CLIENT_SECRET: 'test-secret', OIDC_ISSUER: op.issuer });

  it('behind https: a __Host- Secure flow cookie and a callback on PUBLIC_URL', async () => {
    const secure = await buildTestApp({ ...googleEnv(), PUBLIC_URL: 'https://portal.example' });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/api/auth/google/' });
      expect(res.statusCode).toBe(302);
      expect(new URL(String(res.headers.location)).searchParams.get('redirect_uri')).toBe(
        'https://portal.example/api/auth/google/callback',
      );
      expect(cookieOf(res, '__Host-portal_oidc')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    } finally {
      await secure.close();
    }
  });

  it('rate limits starts per client with RATE_LIMIT_AUTH, answering with a redirect to /login', async () => {
    const limited = await buildTestApp({ ...googleEnv(), RATE_LIMIT_AUTH: '2' });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({ method: 'GET', url: '/api/auth/google/?to=/app' });
        const location = String(res.headers.location);
        codes.push([res.statusCode, location.startsWith('/login') ? location : location.split('?')[0]]);
      }
      expect(codes).toEqual([
        [302, `${op.issuer}/auth`],
        [302, `${op.issuer}/auth`],
        [303, '/login?error=rate_limited&to=%2Fapp'],
      ]);
    } finally {
      await limited.close();
    }
  });

  it('lists the start and callback endpoints in the API docs', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/auth/google/', '/api/auth/google/callback']));
    expect(paths).not.toContain('/api/auth/google');
  });
});
