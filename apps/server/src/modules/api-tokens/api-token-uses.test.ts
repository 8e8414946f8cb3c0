import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { CONSOLE_ROUTES } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodes, users } from '../../db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../../test/console-helpers';
import { bearer, createToken } from '../../../test/api-token-helpers';

/** What a token reaches: its own customer's resources only, the ISO, never the console. */

let t: ConsoleTestApp;
let alice: string;
let aliceKey: string;
let bobKey: string;

const userIdOf = async (email: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
const issue = async (email: string) =>
  (
    await t.app.ctx.services.licenses.issue(t.db, {
      userId: await userIdOf(email),
      subscriptionId: null,
      maxNodes: 2,
      expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      actor: 'test',
    })
  ).key;
const activate = (key: string, fingerprint: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/licenses/${key}/activate`,
    payload: { fingerprint, hostname: fingerprint },
    headers,
  });
const nodeCount = async () => (await t.db.select().from(nodes)).length;

beforeAll(async () => {
  t = await buildConsoleTestApp();
  alice = await t.signIn('alice@example.com');
  await t.signIn('bob@example.com');
  aliceKey = await issue('alice@example.com');
  bobKey = await issue('bob@example.com');
});
afterAll(() => t?.close());

describe('a token reaches its own customer only', () => {
  it("answers 404 for another customer's license, nodes and node", async () => {
    const { secret } = await createToken(t, alice, ['licenses:read', 'nodes:write']);
    const act = await activate(bobKey, 'bob-node-1');
    const nodeId = act.json().node.id as string;
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(secret) });
    expect((await get(`/api/licenses/${bobKey}/nodes`)).statusCode).toBe(404);
    expect((await get(`/api/licenses/${bobKey}/file`)).statusCode).toBe(404);
    const before = await nodeCount();
    const del = await t.app.inject({ method: 'DELETE', url: `/api/licenses/${bobKey}/nodes/${nodeId}`, headers: bearer(secret) });
    expect(del.statusCode).toBe(404);
    expect(await nodeCount()).toBe(before);
    const own = await get('/api/licenses/');
    expect(own.json().items.map((l: { licenseKey: string }) => l.licenseKey)).toEqual([aliceKey]);
  });

  it('automates activation: list the key, activate by key, release with nodes:write; a read-only token cannot release', async () => {
    const reader = await createToken(t, alice, ['licenses:read']);
    const writer = await createToken(t, alice, ['licenses:read', 'nodes:write']);
    const listed = await t.app.inject({ method: 'GET', url: '/api/licenses/', headers: bearer(reader.secret) });
    const key = listed.json().items[0].licenseKey as string;
    // Activation needs no token (the key is the credential) and ignores one sent along.
    const act = await activate(key, 'alice-node-1', bearer(reader.secret));
    expect(act.statusCode).toBe(201);
    const nodeId = act.json().node.id as string;
    const release = (secret: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/licenses/${key}/nodes/${nodeId}`, headers: bearer(secret) });
    const refused = await release(reader.secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toContain('scope="nodes:write"');
    const nodesNow = await t.app.inject({ method: 'GET', url: `/api/licenses/${key}/nodes`, headers: bearer(reader.secret) });
    expect(nodesNow.json().items.map((n: { id: string }) => n.id)).toContain(nodeId);
    // No Origin, no cookie: a bearer request needs no cross-site check.
    expect((await release(writer.secret)).statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: `/api/licenses/${key}/nodes`, headers: bearer(reader.secret) });
    expect(after.json().items.map((n: { id: string }) => n.id)).not.toContain(nodeId);
  });
});

describe('the ISO by token', () => {
  it('downloads the newest ISO with downloads:read, with Range, its ETag and its SHA-256', async () => {
    const { secret } = await createToken(t, alice, ['downloads:read']);
    const info = await t.app.inject({ method: 'GET', url: '/api/products/pce/download', headers: bearer(secret) });
    expect(info.statusCode, info.body).toBe(200);
    const { sha256, size, filename } = info.json<{ sha256: string; size: number; filename: string }>();
    const bytes = readFileSync(path.join(t.config.releases.dir, filename));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);

    const whole = await t.app.inject({ method: 'GET', url: '/api/downloads/iso', headers: bearer(secret) });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers['content-length']).toBe(String(size));
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
    expect(whole.headers['x-checksum-sha256']).toBe(sha256);
    expect(whole.headers['repr-digest']).toBe(`sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`);
    expect(whole.headers['accept-ranges']).toBe('bytes');

    const part = await t.app.inject({
      method: 'GET',
      url: '/api/downloads/iso',
      headers: { ...bearer(secret), range: 'bytes=1000-1999' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${size}`);
    expect(part.rawPayload.equals(bytes.subarray(1000, 2000))).toBe(true);
    // The digest is the whole file's, also on a partial answer (RFC 9530's representation digest).
    expect(part.headers['x-checksum-sha256']).toBe(sha256);

    const resumed = await t.app.inject({
      method: 'GET',
      url: '/api/downloads/iso',
      headers: { ...bearer(secret), range: `bytes=${size - 10}-`, 'if-range': String(whole.headers.etag) },
    });
    expect(resumed.statusCode).toBe(206);
    expect(resumed.rawPayload.equals(bytes.subarray(size - 10))).toBe(true);

    const head = await t.app.inject({ method: 'HEAD', url: '/api/downloads/iso', headers: bearer(secret) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.body).toBe('');

    const past = await t.app.inject({
      method: 'GET',
      url: '/api/downloads/iso',
      headers: { ...bearer(secret), range: `bytes=${size}-` },
    });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('is refused to a token without downloads:read and to no credentials, and served to a session', async () => {
    const { secret } = await createToken(t, alice, ['licenses:read']);
    const res = await t.app.inject({ method: 'GET', url: '/api/downloads/iso', headers: bearer(secret) });
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toContain('scope="downloads:read"');
    expect((await t.app.inject({ method: 'GET', url: '/api/downloads/iso' })).statusCode).toBe(401);
    const asSession = await t.app.inject({ method: 'HEAD', url: '/api/downloads/iso', headers: { cookie: alice } });
    expect(asSession.statusCode).toBe(200);
  });
});

describe('the console', () => {
  it("never takes a token: every guarded route of its listener answers 401, and the portal's listener serves none of them", async () => {
    const { secret } = await createToken(t, alice, ['licenses:read', 'nodes:write', 'downloads:read', 'billing:read']);
    const guarded = Object.values(CONSOLE_ROUTES).filter((r) => r.roles !== null);
    expect(guarded.length).toBeGreaterThan(10);
    for (const route of guarded) {
      const url = route.path.replace(/:([A-Za-z]+)/g, 'x');
      const payload = route.method === 'GET' ? {} : { payload: {} };
      const res = await t.consoleApp.inject({ method: route.method, url, headers: bearer(secret), ...payload });
      expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(401);
      const portal = await t.app.inject({ method: route.method, url, headers: bearer(secret), ...payload });
      expect(portal.statusCode, `portal ${route.method} ${url}`).toBe(404);
    }
  });
});
