import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/app';
import { loginLinks } from '../../src/db/schema/index';
import { buildTestApp, type TestApp } from '../helpers';

/** Issue 14, items 1 and 2: the link exchange redeems only for the portal's own page, never on HEAD. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const usedAt = async (email: string) =>
  (await t.db.select().from(loginLinks).where(eq(loginLinks.email, email)))[0]?.usedAt ?? null;

const redeem = (secret: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/auth/link/${secret}`, headers });

describe('GET /api/auth/link/{id}: login CSRF', () => {
  const refused: [string, Record<string, string>][] = [
    [
      'a cross-site top-level navigation',
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    ],
    ['a same-site navigation from a sibling host', { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' }],
    ['an address typed or pasted into the browser', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }],
    [
      'a same-origin navigation (a plain link on a portal page)',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
    ],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }],
    ['a cross-site image or script load', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }],
  ];

  it.each(refused)('refuses %s with 403, sets no cookie and leaves the link usable', async (_what, headers) => {
    const email = `csrf-${Object.values(headers).join('-')}@example.com`;
    const secret = await t.requestLink(email);
    const res = await redeem(secret, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Open the sign-in link from your e-mail and press Continue on the page it opens.',
      code: 'CROSS_SITE_REQUEST',
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await usedAt(email)).toBeNull();
    // The portal's own page can still redeem it afterwards.
    const own = await redeem(secret, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });
    expect(own.statusCode).toBe(200);
  });

  it("redeems for the portal's own page (a same-origin fetch) and sets the session cookie", async () => {
    const secret = await t.requestLink('own-page@example.com');
    const res = await redeem(secret, { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'same-origin' });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.some((c) => c.name === 'portal_session')).toBe(true);
    expect(await usedAt('own-page@example.com')).not.toBeNull();
  });

  it('redeems for a client without Fetch Metadata (no browser a page could steer)', async () => {
    const secret = await t.requestLink('no-metadata@example.com');
    expect((await redeem(secret)).statusCode).toBe(200);
  });
});

describe('HEAD /api/auth/link/{id}', () => {
  it('never redeems: no session cookie, and the link stays usable', async () => {
    const secret = await t.requestLink('head@example.com');
    const res = await t.app.inject({ method: 'HEAD', url: `/api/auth/link/${secret}` });
    expect(res.statusCode).not.toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await usedAt('head@example.com')).toBeNull();
    expect((await redeem(secret)).statusCode).toBe(200);
  });
});

describe('GET /api/auth/recipient/{id}: the address the landing page shows', () => {
  it('answers the address of a usable link without using it up', async () => {
    const secret = await t.requestLink('Recipient@Example.com');
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/auth/recipient/${secret}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ email: 'recipient@example.com' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await usedAt('recipient@example.com')).toBeNull();
    expect((await redeem(secret)).statusCode).toBe(200);
  });

  it('reveals nothing for a used, replaced, expired or unknown link', async () => {
    const used = await t.requestLink('recipient-used@example.com');
    await redeem(used);
    const replaced = await t.requestLink('recipient-replaced@example.com');
    await t.requestLink('recipient-replaced@example.com');
    const expired = await t.requestLink('recipient-expired@example.com');
    t.clock.advance(16 * 60_000);
    const answers = await Promise.all(
      [used, replaced, expired, 'B'.repeat(43)].map((id) => t.app.inject({ method: 'GET', url: `/api/auth/recipient/${id}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([410, 410, 410, 404]);
    for (const r of answers) expect(r.body).not.toContain('@example.com');
  });

  it('keeps the link secret out of the logs', () => {
    expect(redactUrl(`/api/auth/recipient/${'a'.repeat(43)}`)).toBe('/api/auth/recipient/[redacted]');
  });

  it('answers 400 to a malformed id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/recipient/short' });
    expect(res.statusCode).toBe(400);
  });

  it('is rate limited per client like the other sign-in routes', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_AUTH: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await limited.app.inject({ method: 'GET', url: `/api/auth/recipient/${'C'.repeat(43)}` })).statusCode);
      }
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
