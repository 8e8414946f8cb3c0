import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLinks, sessions, users } from '../../db/schema/index';
import { buildTestApp, ORIGIN, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const linkCount = async () => (await t.db.select({ n: count() }).from(loginLinks))[0]!.n;

describe('POST /api/auth/link', () => {
  it('answers 202 and e-mails a link to /login?link= for a new address', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'New.Person@Example.com' } });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: true });
    await t.app.ctx.services.outbox.kick();
    const mail = t.mailer.messages.at(-1)!;
    expect(mail.to).toBe('new.person@example.com');
    expect(mail.text).toMatch(new RegExp(`^${ORIGIN}/login\\?link=[A-Za-z0-9_-]{43}$`, 'm'));
    expect(mail.html).toContain('/login?link=');
  });

  it('answers the same for a known address', async () => {
    await t.signIn('known@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'known@example.com' } });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: true });
  });

  it('stores only the hash of the secret', async () => {
    const secret = await t.requestLink('hash@example.com');
    const rows = await t.db.select().from(loginLinks).where(eq(loginLinks.email, 'hash@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(secret);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries a same-origin return path into the link', async () => {
    const secret = await t.requestLink('to@example.com', '/app/licenses?x=1');
    expect(t.mailer.messages.at(-1)!.text).toContain('&to=%2Fapp%2Flicenses%3Fx%3D1');
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` });
    expect(res.json().to).toBe('/app/licenses?x=1');
  });

  it.each([
    ['an off-site URL', { email: 'a@example.com', to: 'https://evil.example/' }],
    ['a protocol-relative URL', { email: 'a@example.com', to: '//evil.example/' }],
    ['a backslash path', { email: 'a@example.com', to: '/\\evil.example' }],
    ['a javascript URL', { email: 'a@example.com', to: 'javascript:alert(1)' }],
    ['an invalid e-mail', { email: 'not-an-address' }],
    ['an empty e-mail', { email: '' }],
    ['a missing e-mail', {}],
    ['a non-string e-mail', { email: 42 }],
    ['an unknown field', { email: 'a@example.com', admin: true }],
  ])('refuses %s with 400 and changes nothing', async (_name, payload) => {
    const before = await linkCount();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    expect(res.json().message.length).toBeGreaterThan(5);
    expect(await linkCount()).toBe(before);
  });

  it('names the problem with an invalid address', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'nope' } });
    expect(res.json().message).toBe('Enter a valid e-mail address, such as name@example.com');
  });

  it('names unknown fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'a@example.com', admin: true } });
    expect(res.json().message).toBe('Unknown field in the body: admin');
  });

  it('refuses malformed JSON with 400', async () => {
    const before = await linkCount();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: 'The request body is not valid JSON' });
    expect(await linkCount()).toBe(before);
  });

  it('refuses an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      payload: { email: 'a@example.com', to: `/${'a'.repeat(20_000)}` },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses form-encoded and text bodies with 415', async () => {
    const before = await linkCount();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/link',
        headers: { 'content-type': type },
        payload: 'email=a@example.com',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await linkCount()).toBe(before);
  });

  it('refuses cross-origin mutations with 403', async () => {
    const before = await linkCount();
    const a = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'x@example.com' },
    });
    const b = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { email: 'x@example.com' },
    });
    expect([a.statusCode, b.statusCode]).toEqual([403, 403]);
    expect(a.json().code).toBe('CROSS_SITE_REQUEST');
    expect(await linkCount()).toBe(before);
  });

  it('accepts the portal origin and the origin the request was addressed to', async () => {
    const a = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { origin: ORIGIN },
      payload: { email: 'o1@example.com' },
    });
    const b = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      headers: { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' },
      payload: { email: 'o2@example.com' },
    });
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
  });
});

describe('rate limits', () => {
  it('allows 3 links a minute per address, then 429 with Retry-After', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_LINK_PER_ADDRESS: '3' });
    try {
      const send = () => limited.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'flood@example.com' } });
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(202);
      const res = await send();
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Try again in') });
      const other = await limited.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'other@example.com' } });
      expect(other.statusCode).toBe(202);
      limited.clock.advance(61_000);
    } finally {
      await limited.close();
    }
  });

  it('limits link requests per client', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_AUTH: '5' });
    try {
      const codes = [];
      for (let i = 0; i < 7; i++) {
        const res = await limited.app.inject({ method: 'POST', url: '/api/auth/link', payload: { email: `c${i}@example.com` } });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([202, 202, 202, 202, 202, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/auth/link/{id}', () => {
  it('signs a new address up: creates the user, not onboarded, and starts a session', async () => {
    const secret = await t.requestLink('fresh@example.com');
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: { email: 'fresh@example.com', fname: '', lname: '', onboarded: false, picture: null, company: null },
      to: '/app/dashboard',
    });
    const cookie = res.cookies.find((c) => c.name === 'portal_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.db.select().from(sessions);
    expect(stored.some((s) => s.idHash === cookie.value)).toBe(false);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `portal_session=${cookie.value}` },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe('fresh@example.com');
    expect(session.headers['cache-control']).toBe('no-store');
  });

  it('works once: a second use answers 410', async () => {
    const secret = await t.requestLink('once@example.com');
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'LINK_USED' });
    expect(again.cookies).toHaveLength(0);
  });

  it('gives exactly one session to 20 parallel redemptions', async () => {
    const secret = await t.requestLink('race@example.com');
    const before = (await t.db.select({ n: count() }).from(sessions))[0]!.n;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 410)).toHaveLength(19);
    expect((await t.db.select({ n: count() }).from(sessions))[0]!.n).toBe(before + 1);
  });

  it('expires after 15 minutes', async () => {
    const secret = await t.requestLink('late@example.com');
    t.clock.advance(15 * 60_000 + 1000);
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}` });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ code: 'LINK_EXPIRED', message: 'This sign-in link has expired. Request a new one.' });
  });

  it('is voided by a newer link for the same address', async () => {
    const older = await t.requestLink('twice@example.com');
    const newer = await t.requestLink('twice@example.com');
    const a = await t.app.inject({ method: 'GET', url: `/api/auth/link/${older}` });
    expect(a.statusCode).toBe(410);
    expect(a.json().message).toContain('newer sign-in link');
    expect((await t.app.inject({ method: 'GET', url: `/api/auth/link/${newer}` })).statusCode).toBe(200);
  });

  it('answers 404 to a forged link and 400 to a malformed one', async () => {
    const forged = await t.app.inject({ method: 'GET', url: `/api/auth/link/${'A'.repeat(43)}` });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().code).toBe('NOT_FOUND');
    const malformed = await t.app.inject({ method: 'GET', url: '/api/auth/link/short' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('This sign-in link is not valid');
  });

  it('signs an existing user in to the same account', async () => {
    await t.signIn('again@example.com');
    await t.signIn('AGAIN@example.com', { onboard: false });
    const rows = await t.db.select().from(users).where(eq(users.email, 'again@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.onboarded).toBe(true);
  });
});

describe('session and logout', () => {
  it('answers 401 when signed out, and to a forged cookie', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    const b = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: `portal_session=${'x'.repeat(43)}` },
    });
    expect([a.statusCode, b.statusCode]).toEqual([401, 401]);
    expect(a.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please sign in to continue' });
  });

  it('ends the session server-side: replaying the old cookie answers 401', async () => {
    const cookie = await t.signIn('bye@example.com');
    const out = await t.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'portal_session')?.value).toBe('');
    const replay = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(replay.statusCode).toBe(401);
  });

  it('redirects a browser navigation to /login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
  });

  it('expires an idle session', async () => {
    const cookie = await t.signIn('idle@example.com');
    t.clock.advance(8 * 86_400_000);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })).statusCode).toBe(401);
  });

  it('gives a new session id at every sign-in', async () => {
    const a = await t.signIn('rotate@example.com');
    const b = await t.signIn('rotate@example.com', { onboard: false });
    expect(a).not.toBe(b);
  });
});

describe('security headers', () => {
  it('sets CSP, nosniff, referrer policy and frame denial on every answer', async () => {
    for (const url of ['/api/auth/session', '/api/config', '/api/nope']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers['content-security-policy']).toContain("base-uri 'none'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // On the embedded billing engine nothing is loaded from Stripe (ADR 018).
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
      expect(res.headers['content-security-policy']).toContain("frame-src 'none'");
      expect(res.headers['content-security-policy']).not.toContain('stripe');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBeTruthy();
    }
  });

  it('answers unknown API paths with the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'No such endpoint: GET /api/nope' });
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/auth/link');
  });
});
