import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMIT, type ActivityAction, type ApiToken } from '@portal/contract';
import { apiTokens, auditEvents, users } from '../../db/schema/index';
import { sha256 } from '../../lib/crypto';
import { buildTestApp, ORIGIN, type TestApp } from '../../../test/helpers';
import { bearer, createToken } from '../../../test/api-token-helpers';

let t: TestApp;
let alice: string;
let bob: string;
let aliceId: string;
const HOUR = 3_600_000;

const userIdOf = async (email: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
const tokenCount = async () => (await t.db.select({ n: count() }).from(apiTokens))[0]!.n;
const list = async (cookie: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/tokens', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: ApiToken[] }>().items;
};
const create = (cookie: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/users/tokens', headers: { cookie, ...headers }, payload: payload as object });
const revoke = (cookie: string, id: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'DELETE', url: `/api/users/tokens/${id}`, headers: { cookie, ...headers } });
const licensesWith = (secret: string) => t.app.inject({ method: 'GET', url: '/api/licenses/', headers: bearer(secret) });
const activity = async (userId: string, action: ActivityAction) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, userId), eq(auditEvents.action, action)));

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.signIn('alice@example.com');
  bob = await t.signIn('bob@example.com');
  aliceId = await userIdOf('alice@example.com');
});
afterAll(() => t.close());

describe('creating a token', () => {
  it('answers the secret once, stores only its SHA-256, and lists the token without it', async () => {
    const res = await create(alice, { name: '  CI pipeline ', scopes: ['downloads:read', 'licenses:read'], expiresInDays: 30 });
    expect(res.statusCode, res.body).toBe(201);
    const { token, secret } = res.json<{ token: ApiToken; secret: string }>();
    expect(secret).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'CI pipeline', scopes: ['downloads:read', 'licenses:read'], lastUsedAt: null });
    expect(token.hint).toBe(secret.slice(0, 8));
    expect(new Date(token.expiresAt!).getTime() - t.clock.now().getTime()).toBe(30 * 24 * HOUR);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row!.tokenHash).toBe(sha256(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(8));
    const listed = await list(alice);
    expect(listed.find((x) => x.id === token.id)).toEqual(token);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(8));
    expect((await activity(aliceId, 'api_token_created')).map((e) => e.summary)).toContain(
      `Created API token “CI pipeline” (downloads:read, licenses:read; expires on ${token.expiresAt!.slice(0, 10)})`,
    );
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const before = await tokenCount();
    const cases: [unknown, string][] = [
      [{ name: ' ', scopes: ['licenses:read'], expiresInDays: null }, 'Enter a name for the token'],
      [{ name: 'x'.repeat(61), scopes: ['licenses:read'], expiresInDays: null }, 'The name can be at most 60 characters'],
      [{ name: 'x', scopes: [], expiresInDays: null }, 'Choose at least one scope'],
      [
        { name: 'x', scopes: ['admin'], expiresInDays: null },
        'A scope is one of licenses:read, nodes:write, downloads:read, billing:read',
      ],
      [{ name: 'x', scopes: ['licenses:read', 'licenses:read'], expiresInDays: null }, 'Each scope can be chosen once'],
      [{ name: 'x', scopes: ['licenses:read'], expiresInDays: 7 }, 'The token expires in 30, 90 or 365 days, or never (null)'],
      [{ name: 'x', scopes: ['licenses:read'] }, 'The token expires in 30, 90 or 365 days, or never (null)'],
      [{ name: 'x', scopes: ['licenses:read'], expiresInDays: null, userId: 'someone' }, 'userId'],
    ];
    for (const [payload, message] of cases) {
      const res = await create(alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await tokenCount()).toBe(before);
  });

  it('refuses a cross-site request on the session cookie and changes nothing', async () => {
    const before = await tokenCount();
    const payload = { name: 'x', scopes: ['licenses:read'], expiresInDays: null };
    expect((await create(alice, payload, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await create(alice, payload, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await create(alice, payload, { origin: ORIGIN })).statusCode).toBe(201);
    expect(await tokenCount()).toBe(before + 1);
  });

  it(`holds at most ${API_TOKEN_LIMIT} tokens an account, with a message that says what to do`, async () => {
    const carol = await t.signIn('carol@example.com');
    for (let i = 0; i < API_TOKEN_LIMIT; i++) await createToken(t, carol, ['licenses:read'], { name: `t${i}` });
    const res = await create(carol, { name: 'one more', scopes: ['licenses:read'], expiresInDays: null });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `You already have ${API_TOKEN_LIMIT} API tokens, the most an account can hold. Revoke one you no longer use, then create this one.`,
    );
    const [first] = await list(carol);
    expect((await revoke(carol, first!.id)).statusCode).toBe(204);
    expect((await create(carol, { name: 'one more', scopes: ['licenses:read'], expiresInDays: null })).statusCode).toBe(201);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/tokens',
      payload: { name: 'x', scopes: ['licenses:read'], expiresInDays: null },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('revoking a token', () => {
  it('answers 401 with WWW-Authenticate: Bearer from then on, and takes it off the list', async () => {
    const { token, secret } = await createToken(t, alice, ['licenses:read']);
    expect((await licensesWith(secret)).statusCode).toBe(200);
    expect((await revoke(alice, token.id)).statusCode).toBe(204);
    const res = await licensesWith(secret);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portal-api", error="invalid_token"');
    expect(res.json().message).toBe('This API token is not valid: it is unknown, revoked or expired.');
    expect((await list(alice)).some((x) => x.id === token.id)).toBe(false);
    expect((await activity(aliceId, 'api_token_revoked')).some((e) => e.subjectId === token.id)).toBe(true);
    // Revoked once: a second revocation finds nothing.
    expect((await revoke(alice, token.id)).statusCode).toBe(404);
  });

  it("answers 404 for another customer's token and leaves it working", async () => {
    const { token, secret } = await createToken(t, bob, ['licenses:read']);
    const res = await revoke(alice, token.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This API token was not found. It may have been revoked already.');
    expect((await licensesWith(secret)).statusCode).toBe(200);
    expect((await list(alice)).some((x) => x.id === token.id)).toBe(false);
  });

  it('answers 400 for an id that is not one', async () => {
    const res = await revoke(alice, 'not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('This token id is not valid');
  });

  it('refuses a cross-site revocation and keeps the token', async () => {
    const { token, secret } = await createToken(t, alice, ['licenses:read']);
    expect((await revoke(alice, token.id, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await licensesWith(secret)).statusCode).toBe(200);
  });
});

describe('authenticating with a token', () => {
  it('answers 401 for an expired token, and for unknown and malformed ones', async () => {
    const { secret } = await createToken(t, alice, ['licenses:read'], { expiresInDays: 30 });
    expect((await licensesWith(secret)).statusCode).toBe(200);
    const start = t.clock.now();
    t.clock.advance(30 * 24 * HOUR);
    const expired = await licensesWith(secret);
    t.clock.set(start);
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toContain('Bearer');
    for (const bad of [`pat_${'A'.repeat(43)}`, 'pat_short', '', secret.slice(4)]) {
      const res = await licensesWith(bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    }
    expect((await licensesWith(secret)).statusCode).toBe(200);
  });

  it('stops every token of a deleted account', async () => {
    const dave = await t.signIn('dave@example.com');
    const { secret } = await createToken(t, dave, ['licenses:read']);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/?i_want_to_delete_my_account=true',
      headers: { cookie: dave },
    });
    expect(del.statusCode, del.body).toBe(204);
    expect((await licensesWith(secret)).statusCode).toBe(401);
  });

  it('uses the bearer token alone when a cookie comes along too', async () => {
    const { secret } = await createToken(t, alice, ['downloads:read']);
    const res = await t.app.inject({ method: 'GET', url: '/api/licenses/', headers: { cookie: alice, ...bearer(secret) } });
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="portal-api", error="insufficient_scope", scope="licenses:read"');
  });

  it('leaves other Authorization schemes to the session rules', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/licenses/',
      headers: { cookie: alice, authorization: 'Basic Zm9vOmJhcg==' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('notes the last use to the minute, writing at most once a minute, and logs the first use of each hour', async () => {
    const erin = await t.signIn('erin@example.com');
    const erinId = await userIdOf('erin@example.com');
    t.clock.set(new Date('2026-03-02T10:15:42Z'));
    const { token, secret } = await createToken(t, erin, ['licenses:read'], { name: 'fleet' });
    const lastUsed = async () => (await list(erin)).find((x) => x.id === token.id)!.lastUsedAt;
    await licensesWith(secret);
    expect(await lastUsed()).toBe('2026-03-02T10:15:00.000Z');
    t.clock.set(new Date('2026-03-02T10:15:59Z'));
    await licensesWith(secret);
    expect(await lastUsed()).toBe('2026-03-02T10:15:00.000Z');
    t.clock.set(new Date('2026-03-02T10:47:01Z'));
    await licensesWith(secret);
    expect(await lastUsed()).toBe('2026-03-02T10:47:00.000Z');
    t.clock.set(new Date('2026-03-02T11:00:05Z'));
    await Promise.all([licensesWith(secret), licensesWith(secret), licensesWith(secret)]);
    const used = await activity(erinId, 'api_token_used');
    expect(used.map((e) => e.summary)).toEqual([
      'Used API token “fleet” (GET /api/licenses/; later uses within the hour are not listed)',
      'Used API token “fleet” (GET /api/licenses/; later uses within the hour are not listed)',
    ]);
  });

  it('is rate limited per token (429 with Retry-After), another token keeping its own count', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_API_TOKEN: '2' });
    try {
      const cookie = await limited.signIn('frank@example.com');
      const one = await createToken(limited, cookie, ['licenses:read']);
      const two = await createToken(limited, cookie, ['licenses:read']);
      const get = (secret: string) => limited.app.inject({ method: 'GET', url: '/api/licenses/', headers: bearer(secret) });
      expect((await get(one.secret)).statusCode).toBe(200);
      expect((await get(one.secret)).statusCode).toBe(200);
      const third = await get(one.secret);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
      expect(third.json().message).toContain('Too many requests with this API token.');
      expect((await get(two.secret)).statusCode).toBe(200);
      // The session is not counted against the token.
      expect((await limited.app.inject({ method: 'GET', url: '/api/licenses/', headers: { cookie } })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
