import { createHash, createPublicKey, verify } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_KEY_TYPO_MESSAGE, licenseKeyCheckCharacter } from '@portal/contract';
import { auditEvents, licenses, nodes, users } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { canonicalJson, parseSignatureHeader } from './signing';

const DAY = 86_400_000;

let t: TestApp;
let alice: string;
let bob: string;
let aliceId: string;
let bobId: string;

async function userIdOf(email: string) {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.signIn('alice@example.com');
  bob = await t.signIn('bob@example.com');
  aliceId = await userIdOf('alice@example.com');
  bobId = await userIdOf('bob@example.com');
});
afterAll(() => t.close());

function issue(userId: string, opts: { maxNodes?: number; days?: number } = {}) {
  return t.app.ctx.services.licenses.issue(t.db, {
    userId,
    subscriptionId: null,
    maxNodes: opts.maxNodes ?? 3,
    expiresAt: new Date(t.clock.now().getTime() + (opts.days ?? 30) * DAY),
    actor: 'test',
  });
}

const activate = (key: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: payload as object, headers });
const validate = (key: string, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/licenses/${key}/validate`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const del = (url: string, cookie?: string) => t.app.inject({ method: 'DELETE', url, headers: cookie ? { cookie } : {} });

/** Row counts of everything these endpoints may change: a refused request must leave them alone. */
async function snapshot() {
  // Settle validations buffered by earlier tests, so a timer flush cannot land between two snapshots.
  await t.app.ctx.services.licenses.flushLastSeen();
  const [l] = await t.db.select({ n: count() }).from(licenses);
  const [n] = await t.db.select({ n: count() }).from(nodes);
  const [a] = await t.db.select({ n: count() }).from(auditEvents);
  const lastSeen = (await t.db.select({ id: nodes.id, s: nodes.lastSeenAt }).from(nodes))
    .map((r) => `${r.id}:${r.s.toISOString()}`)
    .sort();
  return { licenses: l!.n, nodes: n!.n, audit: a!.n, lastSeen };
}

/** A well-formed key (right check character) that no license has. */
function unknownKey() {
  const body = 'ZZZZZZZZZZZZZZZZZZZZZZZ' + String.fromCharCode(50 + Math.floor(Math.random() * 8));
  const s = body + licenseKeyCheckCharacter(body);
  return s.match(/.{5}/g)!.join('-');
}

/** The same key with its check character replaced: a typo. */
function mistyped(key: string) {
  const last = key.at(-1)!;
  return key.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

async function publicKey() {
  const res = await get('/api/licenses/public-key');
  expect(res.statusCode).toBe(200);
  return res.json() as { keyId: string; algorithm: string; publicKeyPem: string };
}

function verifies(publicKeyPem: string, body: Buffer | string, header: string | undefined) {
  const sig = parseSignatureHeader(header);
  if (!sig) return false;
  return verify(null, Buffer.from(body), createPublicKey(publicKeyPem), Buffer.from(sig.sig, 'base64'));
}

describe('GET /api/licenses/', () => {
  it('answers 401 when signed out', async () => {
    const res = await get('/api/licenses/');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers an empty page for a customer without licenses', async () => {
    const carol = await t.signIn('carol@example.com');
    const res = await get('/api/licenses/', carol);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], page: 1, size: 20, total: 0 });
  });

  it('lists only the customer’s own licenses, newest first, page by page', async () => {
    const dave = await t.signIn('dave@example.com');
    const daveId = await userIdOf('dave@example.com');
    const issued: string[] = [];
    for (let i = 0; i < 5; i++) {
      issued.push((await issue(daveId, { maxNodes: i + 1 })).key);
      t.clock.advance(1000);
    }
    await issue(bobId);
    const first = await get('/api/licenses/?page=1&size=2', dave);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ page: 1, size: 2, total: 5 });
    expect(body.items.map((l: { licenseKey: string }) => l.licenseKey)).toEqual([issued[4], issued[3]]);
    expect(body.items[0]).toEqual({
      licenseKey: issued[4],
      status: 'active',
      maxNodes: 5,
      activeNodes: 0,
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      stripeId: null,
      suspensionMessage: null,
    });
    const all = [];
    for (let page = 1; page <= 3; page++) {
      const res = await get(`/api/licenses/?page=${page}&size=2`, dave);
      all.push(...res.json().items.map((l: { licenseKey: string }) => l.licenseKey));
    }
    expect(all).toEqual([...issued].reverse());
    const beyond = await get('/api/licenses/?page=9&size=2', dave);
    expect(beyond.json()).toEqual({ items: [], page: 9, size: 2, total: 5 });
  });

  it('keeps a stable order for licenses issued at the same instant', async () => {
    const erin = await t.signIn('erin@example.com');
    const erinId = await userIdOf('erin@example.com');
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await issue(erinId));
    const pages = [];
    for (let page = 1; page <= 4; page++)
      pages.push((await get(`/api/licenses/?page=${page}&size=1`, erin)).json().items[0].licenseKey);
    expect(new Set(pages).size).toBe(4);
    const expected = [...ids].sort((a, b) => (a.id < b.id ? 1 : -1)).map((l) => l.key);
    expect(pages).toEqual(expected);
  });

  it('counts active nodes and reads expired and revoked licenses as such', async () => {
    const fay = await t.signIn('fay@example.com');
    const fayId = await userIdOf('fay@example.com');
    const active = await issue(fayId, { maxNodes: 2 });
    await activate(active.key, { fingerprint: 'fp-1' });
    const expiring = await issue(fayId, { days: 1 });
    const revoked = await issue(fayId);
    await t.app.ctx.services.licenses.revoke(t.db, revoked.key, 'test');
    t.clock.advance(2 * DAY);
    const items = (await get('/api/licenses/', fay)).json().items as Array<{
      licenseKey: string;
      status: string;
      activeNodes: number;
    }>;
    const byKey = Object.fromEntries(items.map((i) => [i.licenseKey, i]));
    expect(byKey[active.key]).toMatchObject({ status: 'active', activeNodes: 1 });
    expect(byKey[expiring.key]).toMatchObject({ status: 'expired' });
    expect(byKey[revoked.key]).toMatchObject({ status: 'suspended' });
  });

  it.each([
    ['page 0', 'page=0', 'page must be at least 1'],
    ['a negative page', 'page=-1', 'page must be a whole number'],
    ['a non-numeric page', 'page=abc', 'page must be a whole number'],
    ['size 0', 'size=0', 'size must be at least 1'],
    ['size 101', 'size=101', 'size must be at most 100'],
    ['a huge size', 'size=999999999', 'size must be at most 100'],
    ['a fractional size', 'size=1.5', 'size must be a whole number'],
    ['an unknown parameter', 'sort=key', 'Unknown field in the query: sort'],
  ])('refuses %s with 400', async (_name, query, message) => {
    const res = await get(`/api/licenses/?${query}`, alice);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });
});

describe('POST /api/licenses/{key}/activate', () => {
  it('activates a new fingerprint with 201, without a session', async () => {
    const { key } = await issue(aliceId);
    const before = await snapshot();
    const res = await activate(key, { fingerprint: 'machine-0001', hostname: 'web-01' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({
      node: {
        id: expect.any(String),
        fingerprint: 'machine-0001',
        hostname: 'web-01',
        activatedAt: t.clock.now().toISOString(),
        lastSeenAt: t.clock.now().toISOString(),
      },
      license: {
        licenseKey: key,
        status: 'active',
        maxNodes: 3,
        activeNodes: 1,
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      },
    });
    const after = await snapshot();
    expect(after.nodes).toBe(before.nodes + 1);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, body.node.id));
    expect(event).toMatchObject({
      userId: aliceId,
      action: 'node_activated',
      summary: `Activated node web-01 on license ${key.slice(0, 5)}-…`,
    });
  });

  it('is idempotent for an active fingerprint: 200 with the same node', async () => {
    const { key } = await issue(aliceId, { maxNodes: 1 });
    const first = await activate(key, { fingerprint: 'same-machine' });
    const again = await activate(key, { fingerprint: 'same-machine' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().node.id).toBe(first.json().node.id);
    expect(again.json().license.activeNodes).toBe(1);
    const rows = await t.db.select().from(nodes).where(eq(nodes.fingerprint, 'same-machine'));
    expect(rows).toHaveLength(1);
  });

  it('accepts the key in lower case and with surrounding spaces in the path', async () => {
    const { key } = await issue(aliceId);
    const res = await activate(key.toLowerCase(), { fingerprint: 'lower-case' });
    expect(res.statusCode).toBe(201);
    expect(res.json().license.licenseKey).toBe(key);
  });

  it('ignores a session cookie: anyone holding the key may activate', async () => {
    const { key } = await issue(aliceId);
    const res = await activate(key, { fingerprint: 'with-bobs-cookie' }, { cookie: bob });
    expect(res.statusCode).toBe(201);
  });

  it('answers 409 NODE_LIMIT_REACHED saying the limit and how to free a slot, and adds nothing', async () => {
    const { key } = await issue(aliceId, { maxNodes: 2 });
    await activate(key, { fingerprint: 'a' });
    await activate(key, { fingerprint: 'b' });
    const before = await snapshot();
    const res = await activate(key, { fingerprint: 'c' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NODE_LIMIT_REACHED');
    expect(res.json().message).toMatch(/allows 2 nodes/);
    expect(res.json().message).toMatch(/release a node/i);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a revoked license with 409 LICENSE_INACTIVE', async () => {
    const { key } = await issue(aliceId);
    await t.app.ctx.services.licenses.revoke(t.db, key, 'test');
    const before = await snapshot();
    const res = await activate(key, { fingerprint: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'LICENSE_INACTIVE',
      message: expect.stringMatching(/was revoked on .* no node can be activated/),
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an expired license with 409 LICENSE_INACTIVE', async () => {
    const { key } = await issue(aliceId, { days: 1 });
    t.clock.advance(DAY);
    const before = await snapshot();
    const res = await activate(key, { fingerprint: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'LICENSE_INACTIVE', message: expect.stringMatching(/expired on .*Renew/) });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for a well-formed key that no license has', async () => {
    const before = await snapshot();
    const res = await activate(unknownKey(), { fingerprint: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect(await snapshot()).toEqual(before);
  });

  it('tells a mistyped key (wrong check character) apart from an unknown one', async () => {
    const { key } = await issue(aliceId);
    const before = await snapshot();
    const res = await activate(mistyped(key), { fingerprint: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: LICENSE_KEY_TYPO_MESSAGE });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a malformed key', 'ABCDE-12345', { fingerprint: 'x' }, /25 characters in 5 groups/],
    ['a key with look-alike letters', 'OOOOO-IIIII-LLLLL-00000-11111', { fingerprint: 'x' }, /25 characters in 5 groups/],
    ['a missing fingerprint', null, {}, /fingerprint|expected string/i],
    ['an empty fingerprint', null, { fingerprint: '' }, /Enter the node fingerprint/],
    ['a blank fingerprint', null, { fingerprint: '   ' }, /Enter the node fingerprint/],
    ['an oversized fingerprint', null, { fingerprint: 'f'.repeat(257) }, /at most 256 characters/],
    ['a fingerprint with spaces', null, { fingerprint: 'a b' }, /printable characters without spaces/],
    ['a non-string fingerprint', null, { fingerprint: 12345 }, /must be text/],
    ['an object fingerprint', null, { fingerprint: { a: 1 } }, /must be text/],
    ['an oversized hostname', null, { fingerprint: 'x', hostname: 'h'.repeat(254) }, /at most 253 characters/],
    ['an unknown field', null, { fingerprint: 'x', admin: true }, /Unknown field in the body: admin/],
  ])('refuses %s with 400 and changes nothing', async (_name, badKey, payload, message) => {
    const { key } = await issue(aliceId);
    const before = await snapshot();
    const res = await activate(badKey ?? key, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toMatch(message);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const { key } = await issue(aliceId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${key}/activate`,
      headers: { 'content-type': 'text/plain' },
      payload: 'fingerprint=x',
    });
    expect(res.statusCode).toBe(415);
  });

  it('refuses a body over 16 KiB with 413', async () => {
    const { key } = await issue(aliceId);
    const res = await activate(key, { fingerprint: 'x', hostname: 'h'.repeat(17 * 1024) });
    expect(res.statusCode).toBe(413);
  });

  it('lets exactly as many of 50 parallel activations through as the license admits', async () => {
    const { key } = await issue(aliceId, { maxNodes: 3 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => activate(key, { fingerprint: `race-${i}` })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(47);
    const [license] = await t.db.select().from(licenses).where(eq(licenses.key, key));
    const [n] = await t.db.select({ n: count() }).from(nodes).where(eq(nodes.licenseId, license!.id));
    expect(n!.n).toBe(3);
  });

  it('answers parallel activations of one fingerprint with one node', async () => {
    const { key } = await issue(aliceId, { maxNodes: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => activate(key, { fingerprint: 'twin' })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(9);
    expect(new Set(results.map((r) => r.json().node.id)).size).toBe(1);
  });
});

describe('POST /api/licenses/{key}/validate', () => {
  it('answers VALID for a good key without a fingerprint, echoing the nonce', async () => {
    const { key } = await issue(aliceId, { maxNodes: 2 });
    const res = await validate(key, { nonce: 'n-123' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      code: 'VALID',
      license: { licenseKey: key, status: 'active', maxNodes: 2, activeNodes: 0, expiresAt: expect.any(String) },
      nonce: 'n-123',
      checkedAt: t.clock.now().toISOString(),
    });
  });

  it('accepts a bare POST without a body and answers a null nonce', async () => {
    const { key } = await issue(aliceId);
    const res = await validate(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, code: 'VALID', nonce: null });
  });

  it('answers VALID with the node for an activated fingerprint', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'validated' })).json().node;
    const res = await validate(key, { fingerprint: 'validated' });
    expect(res.json()).toMatchObject({ valid: true, code: 'VALID', node: { id: node.id, fingerprint: 'validated' } });
  });

  it('answers NOT_ACTIVATED for a fingerprint that is not activated while slots are free', async () => {
    const { key } = await issue(aliceId, { maxNodes: 2 });
    await activate(key, { fingerprint: 'one' });
    const res = await validate(key, { fingerprint: 'other' });
    expect(res.json()).toMatchObject({ valid: false, code: 'NOT_ACTIVATED', license: { activeNodes: 1, maxNodes: 2 } });
    expect(res.json().node).toBeUndefined();
  });

  it('answers NODE_LIMIT_REACHED for a fingerprint that is not activated while the license is full', async () => {
    const { key } = await issue(aliceId, { maxNodes: 1 });
    await activate(key, { fingerprint: 'one' });
    const res = await validate(key, { fingerprint: 'other' });
    expect(res.json()).toMatchObject({ valid: false, code: 'NODE_LIMIT_REACHED', license: { activeNodes: 1, maxNodes: 1 } });
    const mine = await validate(key, { fingerprint: 'one' });
    expect(mine.json()).toMatchObject({ valid: true, code: 'VALID' });
  });

  it('answers EXPIRED once the expiry has passed, with or without a fingerprint', async () => {
    const { key } = await issue(aliceId, { days: 2 });
    await activate(key, { fingerprint: 'old' });
    t.clock.advance(2 * DAY);
    expect((await validate(key, {})).json()).toMatchObject({ valid: false, code: 'EXPIRED', license: { status: 'expired' } });
    expect((await validate(key, { fingerprint: 'old' })).json()).toMatchObject({ valid: false, code: 'EXPIRED' });
  });

  it('answers SUSPENDED for a revoked license', async () => {
    const { key } = await issue(aliceId);
    await activate(key, { fingerprint: 'gone' });
    await t.app.ctx.services.licenses.revoke(t.db, key, 'test');
    expect((await validate(key, { fingerprint: 'gone' })).json()).toMatchObject({
      valid: false,
      code: 'SUSPENDED',
      license: { status: 'suspended' },
    });
  });

  it('answers 200 NOT_FOUND for a well-formed key that no license has, revealing nothing else', async () => {
    const res = await validate(unknownKey(), { fingerprint: 'x', nonce: 'n' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: false, code: 'NOT_FOUND', nonce: 'n', checkedAt: expect.any(String) });
  });

  it.each([
    ['a malformed key', 'NOT-A-KEY', {}, /25 characters in 5 groups/],
    ['a mistyped key', 'typo', {}, new RegExp(LICENSE_KEY_TYPO_MESSAGE)],
    ['an empty fingerprint', null, { fingerprint: '' }, /Enter the node fingerprint/],
    ['an oversized fingerprint', null, { fingerprint: 'f'.repeat(300) }, /at most 256/],
    ['a non-string fingerprint', null, { fingerprint: 7 }, /must be text/],
    ['an oversized nonce', null, { nonce: 'n'.repeat(129) }, /at most 128/],
    ['a non-string nonce', null, { nonce: 5 }, /must be text/],
    ['an unknown field', null, { fingerprint: 'x', extra: 1 }, /Unknown field in the body: extra/],
  ])('refuses %s with 400 and changes nothing', async (_name, badKey, payload, message) => {
    const { key } = await issue(aliceId);
    await activate(key, { fingerprint: 'x' });
    const before = await snapshot();
    const res = await validate(badKey === 'typo' ? mistyped(key) : (badKey ?? key), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toMatch(message);
    expect(await snapshot()).toEqual(before);
  });
});

describe('signed answers', () => {
  it('publishes the public key without a session, with its key id', async () => {
    const pk = await publicKey();
    expect(pk.algorithm).toBe('Ed25519');
    expect(pk.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const raw = Buffer.from(createPublicKey(pk.publicKeyPem).export({ format: 'jwk' }).x!, 'base64url');
    expect(raw).toHaveLength(32);
    expect(pk.keyId).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 16));
  });

  it('signs validate answers over their exact bytes; a tampered body fails', async () => {
    const pk = await publicKey();
    const { key } = await issue(aliceId);
    const res = await validate(key, { nonce: 'fresh-nonce' });
    const header = res.headers.signature as string;
    expect(header).toMatch(/^keyid="[0-9a-f]{16}", alg="ed25519", sig="[A-Za-z0-9+/=]+"$/);
    expect(parseSignatureHeader(header)!.keyId).toBe(pk.keyId);
    expect(verifies(pk.publicKeyPem, res.rawPayload, header)).toBe(true);
    expect(verifies(pk.publicKeyPem, res.body.replace('"valid":true', '"valid":false'), header)).toBe(false);
    expect(verifies(pk.publicKeyPem, res.body.replace('fresh-nonce', 'stale-nonce'), header)).toBe(false);
    expect(verifies(pk.publicKeyPem, `${res.body} `, header)).toBe(false);
  });

  it('signs activate answers, and error answers too', async () => {
    const pk = await publicKey();
    const { key } = await issue(aliceId, { maxNodes: 1 });
    const ok = await activate(key, { fingerprint: 'signed' });
    expect(verifies(pk.publicKeyPem, ok.rawPayload, ok.headers.signature as string)).toBe(true);
    const full = await activate(key, { fingerprint: 'second' });
    expect(full.statusCode).toBe(409);
    expect(verifies(pk.publicKeyPem, full.rawPayload, full.headers.signature as string)).toBe(true);
    const notFound = await activate(unknownKey(), { fingerprint: 'x' });
    expect(verifies(pk.publicKeyPem, notFound.rawPayload, notFound.headers.signature as string)).toBe(true);
  });

  it('keeps the same key across restarts on one DATA_DIR', async () => {
    const pk = await publicKey();
    const { loadSigner } = await import('./signing');
    const again = loadSigner({ configuredPem: undefined, dataDir: t.config.dataDir });
    expect(again.keyId).toBe(pk.keyId);
  });
});

describe('GET /api/licenses/{key}/file', () => {
  it('downloads a signed license file that verifies with the published key', async () => {
    const pk = await publicKey();
    const { key } = await issue(aliceId, { maxNodes: 4 });
    const res = await get(`/api/licenses/${key}/file`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="license-${key}.json"`);
    const file = res.json();
    expect(file).toEqual({
      license: {
        key,
        customerEmail: 'alice@example.com',
        status: 'active',
        maxNodes: 4,
        expiresAt: expect.any(String),
        issuedAt: t.clock.now().toISOString(),
      },
      keyId: pk.keyId,
      algorithm: 'Ed25519',
      signature: expect.any(String),
    });
    const ok = (doc: unknown) =>
      verify(null, Buffer.from(canonicalJson(doc)), createPublicKey(pk.publicKeyPem), Buffer.from(file.signature, 'base64'));
    expect(ok(file.license)).toBe(true);
    expect(ok({ ...file.license, maxNodes: 400 })).toBe(false);
    expect(ok({ ...file.license, expiresAt: '2099-01-01T00:00:00.000Z' })).toBe(false);
  });

  it('answers 404 for another customer’s key exactly as for an unknown one, and 401 signed out', async () => {
    const { key } = await issue(aliceId);
    const theirs = await get(`/api/licenses/${key}/file`, bob);
    const unknown = await get(`/api/licenses/${unknownKey()}/file`, bob);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect((await get(`/api/licenses/${key}/file`)).statusCode).toBe(401);
    expect((await get(`/api/licenses/${mistyped(key)}/file`, alice)).statusCode).toBe(400);
  });
});

describe('GET /api/licenses/{key}/nodes', () => {
  it('lists the nodes by activation time, page by page', async () => {
    const { key } = await issue(aliceId, { maxNodes: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await activate(key, { fingerprint: `n-${i}`, hostname: `host-${i}` })).json().node.id);
      t.clock.advance(60_000);
    }
    const collected: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await get(`/api/licenses/${key}/nodes?page=${page}&size=2`, alice);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ page, size: 2, total: 5 });
      collected.push(...res.json().items.map((n: { id: string }) => n.id));
    }
    expect(collected).toEqual(ids);
    const one = (await get(`/api/licenses/${key}/nodes`, alice)).json().items[0];
    expect(one).toEqual({
      id: ids[0],
      fingerprint: 'n-0',
      hostname: 'host-0',
      activatedAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
  });

  it('answers 404 for another customer’s key exactly as for an unknown one', async () => {
    const { key } = await issue(aliceId);
    const theirs = await get(`/api/licenses/${key}/nodes`, bob);
    const unknown = await get(`/api/licenses/${unknownKey()}/nodes`, bob);
    expect(theirs.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
  });

  it('answers 401 when signed out, even for bad input', async () => {
    const { key } = await issue(aliceId);
    expect((await get(`/api/licenses/${key}/nodes`)).statusCode).toBe(401);
    expect((await get(`/api/licenses/nope/nodes?size=0`)).statusCode).toBe(401);
  });

  it.each([
    ['a malformed key', 'bad-key', '', /25 characters/],
    ['a mistyped key', 'typo', '', new RegExp(LICENSE_KEY_TYPO_MESSAGE)],
    ['size 0', null, '?size=0', /at least 1/],
    ['size 101', null, '?size=101', /at most 100/],
    ['page 0', null, '?page=0', /at least 1/],
  ])('refuses %s with 400', async (_name, badKey, query, message) => {
    const { key } = await issue(aliceId);
    const res = await get(`/api/licenses/${badKey === 'typo' ? mistyped(key) : (badKey ?? key)}/nodes${query}`, alice);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });
});

describe('DELETE /api/licenses/{key}/nodes/{id}', () => {
  it('releases a node with 204 and frees its slot', async () => {
    const { key } = await issue(aliceId, { maxNodes: 1 });
    const node = (await activate(key, { fingerprint: 'retired', hostname: 'old-box' })).json().node;
    expect((await activate(key, { fingerprint: 'new' })).statusCode).toBe(409);
    const res = await del(`/api/licenses/${key}/nodes/${node.id}`, alice);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.db.select().from(nodes).where(eq(nodes.id, node.id))).toHaveLength(0);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'node_released'));
    expect(event).toMatchObject({
      userId: aliceId,
      actor: 'alice@example.com',
      summary: `Released node old-box from license ${key.slice(0, 5)}-…`,
    });
    expect((await activate(key, { fingerprint: 'new' })).statusCode).toBe(201);
    expect((await validate(key, { fingerprint: 'retired' })).json().code).toBe('NODE_LIMIT_REACHED');
  });

  it('answers 404 for another customer’s node and changes nothing', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'keep' })).json().node;
    const before = await snapshot();
    const theirs = await del(`/api/licenses/${key}/nodes/${node.id}`, bob);
    expect(theirs.statusCode).toBe(404);
    const unknown = await del(`/api/licenses/${unknownKey()}/nodes/${node.id}`, bob);
    expect(theirs.json()).toEqual(unknown.json());
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for a node of another of the owner’s licenses, or an unknown node', async () => {
    const a = await issue(aliceId);
    const b = await issue(aliceId);
    const node = (await activate(a.key, { fingerprint: 'on-a' })).json().node;
    const before = await snapshot();
    expect((await del(`/api/licenses/${b.key}/nodes/${node.id}`, alice)).statusCode).toBe(404);
    expect((await del(`/api/licenses/${a.key}/nodes/00000000-0000-4000-8000-000000000000`, alice)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 401 signed out and 400 for a bad node id, changing nothing', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'stay' })).json().node;
    const before = await snapshot();
    expect((await del(`/api/licenses/${key}/nodes/${node.id}`)).statusCode).toBe(401);
    const bad = await del(`/api/licenses/${key}/nodes/not-a-uuid`, alice);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('This node id is not valid');
    expect((await del(`/api/licenses/${mistyped(key)}/nodes/${node.id}`, alice)).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('last seen', () => {
  it('buffers validation times and writes them in one flush', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'seen' })).json().node;
    const activatedAt = node.lastSeenAt;
    t.clock.advance(10 * 60_000);
    const seenAt = t.clock.now().toISOString();
    await validate(key, { fingerprint: 'seen' });
    const stored = async () => (await t.db.select().from(nodes).where(eq(nodes.id, node.id)))[0]!.lastSeenAt.toISOString();
    // Not written per call...
    expect(await stored()).toBe(activatedAt);
    // ...but shown at once by this instance...
    const listed = (await get(`/api/licenses/${key}/nodes`, alice)).json().items[0];
    expect(listed.lastSeenAt).toBe(seenAt);
    // ...and written by the flush.
    await t.app.ctx.services.licenses.flushLastSeen();
    expect(await stored()).toBe(seenAt);
  });

  it('never moves a last-seen time backwards', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'monotonic' })).json().node;
    t.clock.advance(60_000);
    await validate(key, { fingerprint: 'monotonic' });
    await t.app.ctx.services.licenses.flushLastSeen();
    const later = t.clock.now().toISOString();
    t.clock.advance(-30_000);
    await validate(key, { fingerprint: 'monotonic' });
    await t.app.ctx.services.licenses.flushLastSeen();
    const [row] = await t.db.select().from(nodes).where(eq(nodes.id, node.id));
    expect(row!.lastSeenAt.toISOString()).toBe(later);
  });

  it('keeps last seen to the minute: a chatty node is written once a minute, not at every flush', async () => {
    const { key } = await issue(aliceId);
    const node = (await activate(key, { fingerprint: 'chatty' })).json().node;
    const stored = async () => (await t.db.select().from(nodes).where(eq(nodes.id, node.id)))[0]!.lastSeenAt.toISOString();
    let after = 0;
    for (const seconds of [5, 30, 59]) {
      t.clock.advance((seconds - after) * 1000);
      after = seconds;
      await validate(key, { fingerprint: 'chatty' });
      await t.app.ctx.services.licenses.flushLastSeen();
      expect(await stored(), `${seconds} s after activation`).toBe(node.lastSeenAt);
    }
    t.clock.advance(1000);
    const minuteOn = t.clock.now().toISOString();
    await validate(key, { fingerprint: 'chatty' });
    await t.app.ctx.services.licenses.flushLastSeen();
    expect(await stored()).toBe(minuteOn);
  });

  it('flushes pending times when the app closes', async () => {
    const other = await buildTestApp();
    try {
      const ownerId =
        (await other.signIn('closer@example.com'),
        (await other.db.select().from(users).where(eq(users.email, 'closer@example.com')))[0]!.id);
      const { key } = await other.app.ctx.services.licenses.issue(other.db, {
        userId: ownerId,
        subscriptionId: null,
        maxNodes: 1,
        expiresAt: new Date(other.clock.now().getTime() + DAY),
        actor: 'test',
      });
      await other.app.inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: { fingerprint: 'closing' } });
      other.clock.advance(5 * 60_000);
      const seenAt = other.clock.now().toISOString();
      await other.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { fingerprint: 'closing' } });
      await other.app.close();
      const [row] = await other.db.select().from(nodes).where(eq(nodes.fingerprint, 'closing'));
      expect(row!.lastSeenAt.toISOString()).toBe(seenAt);
    } finally {
      await other.close();
    }
  });
});

describe('rate limits', () => {
  it('limits each key and each client per minute with 429 and Retry-After', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_LICENSE: '3' });
    try {
      const ownerId =
        (await limited.signIn('limited@example.com'),
        (await limited.db.select().from(users).where(eq(users.email, 'limited@example.com')))[0]!.id);
      const issueHere = () =>
        limited.app.ctx.services.licenses.issue(limited.db, {
          userId: ownerId,
          subscriptionId: null,
          maxNodes: 3,
          expiresAt: new Date(limited.clock.now().getTime() + DAY),
          actor: 'test',
        });
      const call = (key: string, ip: string, what = 'validate') =>
        limited.app.inject({
          method: 'POST',
          url: `/api/licenses/${key}/${what}`,
          payload: what === 'validate' ? {} : { fingerprint: ip },
          remoteAddress: ip,
        });

      // Per key: four different clients, one key.
      const a = await issueHere();
      for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) expect((await call(a.key, ip)).statusCode).toBe(200);
      const byKey = await call(a.key, '10.0.0.4', 'activate');
      expect(byKey.statusCode).toBe(429);
      expect(byKey.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/this license key.*Try again in \d+ seconds/),
      });
      expect(Number(byKey.headers['retry-after'])).toBeGreaterThan(0);

      // Per client: one client, four different keys.
      const keys = [await issueHere(), await issueHere(), await issueHere(), await issueHere()];
      for (const k of keys.slice(0, 3)) expect((await call(k.key, '10.0.0.9')).statusCode).toBe(200);
      const byClient = await call(keys[3]!.key, '10.0.0.9');
      expect(byClient.statusCode).toBe(429);
      expect(byClient.json().message).toMatch(/from this address/);
      expect(byClient.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

describe('the stored node count (licenses.active_nodes)', () => {
  /** The count kept on the license beside the nodes actually stored for it. */
  async function counts(key: string) {
    const [license] = await t.db.select().from(licenses).where(eq(licenses.key, key));
    const [n] = await t.db.select({ n: count() }).from(nodes).where(eq(nodes.licenseId, license!.id));
    return { kept: license!.activeNodes, real: n!.n };
  }

  it('follows activations and releases, and every view reports it', async () => {
    const { key } = await issue(aliceId, { maxNodes: 3 });
    expect(await counts(key)).toEqual({ kept: 0, real: 0 });
    const a = (await activate(key, { fingerprint: 'count-a' })).json();
    expect(a.license.activeNodes).toBe(1);
    const b = (await activate(key, { fingerprint: 'count-b' })).json();
    expect(b.license.activeNodes).toBe(2);
    // Re-activating a known fingerprint changes nothing.
    expect((await activate(key, { fingerprint: 'count-a' })).json().license.activeNodes).toBe(2);
    expect(await counts(key)).toEqual({ kept: 2, real: 2 });
    expect((await del(`/api/licenses/${key}/nodes/${a.node.id}`, alice)).statusCode).toBe(204);
    expect(await counts(key)).toEqual({ kept: 1, real: 1 });
    // A failed release (already gone) rolls back: the count is not taken down twice.
    expect((await del(`/api/licenses/${key}/nodes/${a.node.id}`, alice)).statusCode).toBe(404);
    expect(await counts(key)).toEqual({ kept: 1, real: 1 });
    // A refused activation (limit reached) leaves it alone too.
    await activate(key, { fingerprint: 'count-c' });
    await activate(key, { fingerprint: 'count-d' });
    expect((await activate(key, { fingerprint: 'count-e' })).statusCode).toBe(409);
    expect(await counts(key)).toEqual({ kept: 3, real: 3 });

    expect((await validate(key, {})).json().license.activeNodes).toBe(3);
    expect((await validate(key, { fingerprint: 'count-b' })).json().license.activeNodes).toBe(3);
    expect((await get(`/api/licenses/${key}/nodes?size=2`, alice)).json()).toMatchObject({ total: 3 });
    const listed = (await get('/api/licenses/?size=100', alice)).json().items as Array<{
      licenseKey: string;
      activeNodes: number;
    }>;
    expect(listed.find((l) => l.licenseKey === key)?.activeNodes).toBe(3);
  });

  it('equals the real count after parallel activations and releases of one license', async () => {
    const { key } = await issue(aliceId, { maxNodes: 5 });
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await activate(key, { fingerprint: `mix-old-${i}` })).json().node.id as string);
    const results = await Promise.all([
      ...Array.from({ length: 24 }, (_, i) => activate(key, { fingerprint: `mix-new-${i}` })),
      // Re-activations of nodes being released: each either touches the node or, after its release, adds it again.
      ...Array.from({ length: 4 }, (_, i) => activate(key, { fingerprint: `mix-old-${i}` })),
      ...first.map((id) => del(`/api/licenses/${key}/nodes/${id}`, alice)),
      // The same release twice: one of each pair answers 404.
      ...first.map((id) => del(`/api/licenses/${key}/nodes/${id}`, alice)),
      ...Array.from({ length: 6 }, (_, i) => validate(key, { fingerprint: `mix-new-${i}` })),
    ]);
    const statuses = results.map((r) => r.statusCode);
    // Deadlocks or lost updates would surface as 500s.
    expect(statuses.filter((s) => ![200, 201, 204, 404, 409].includes(s))).toEqual([]);
    const created = statuses.filter((s) => s === 201).length;
    const released = statuses.filter((s) => s === 204).length;
    expect(released).toBe(4);
    expect(statuses.filter((s) => s === 404)).toHaveLength(4);
    const after = await counts(key);
    expect(after).toEqual({ kept: 4 + created - released, real: 4 + created - released });
    expect(after.real).toBeLessThanOrEqual(5);
    // The limit still holds exactly from the kept count.
    for (let i = after.real; i < 5; i++) expect((await activate(key, { fingerprint: `mix-fill-${i}` })).statusCode).toBe(201);
    expect((await activate(key, { fingerprint: 'mix-over' })).statusCode).toBe(409);
    expect(await counts(key)).toEqual({ kept: 5, real: 5 });
  });

  it('pages nodes activated at the same instant by id, with the kept count as total', async () => {
    const { key } = await issue(aliceId, { maxNodes: 7 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await activate(key, { fingerprint: `same-${i}` })).json().node.id as string);
    expect((await del(`/api/licenses/${key}/nodes/${ids[2]}`, alice)).statusCode).toBe(204);
    const remaining = ids.filter((_, i) => i !== 2).sort();
    const collected: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = (await get(`/api/licenses/${key}/nodes?page=${page}&size=2`, alice)).json();
      expect(body).toMatchObject({ page, size: 2, total: 6 });
      collected.push(...body.items.map((n: { id: string }) => n.id));
    }
    expect(collected).toEqual(remaining);
  });
});

describe('OpenAPI document', () => {
  it('describes the license endpoints', async () => {
    const res = await get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/licenses/',
        '/api/licenses/public-key',
        '/api/licenses/{licenseKey}/nodes',
        '/api/licenses/{licenseKey}/nodes/{id}',
        '/api/licenses/{licenseKey}/activate',
        '/api/licenses/{licenseKey}/validate',
        '/api/licenses/{licenseKey}/file',
      ]),
    );
  });
});
