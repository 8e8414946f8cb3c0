import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileDigests } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { MANIFEST_FILE } from '../../providers/storage';
import { expiryFor, matchesEtag, parseRange } from './downloads';

let t: TestApp;
let cookie: string;
let dir: string;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const withParam = (url: string, key: string, value: string | null) => {
  const u = new URL(url);
  if (value === null) u.searchParams.delete(key);
  else u.searchParams.set(key, value);
  return u.pathname + u.search;
};
const digestCount = async () => (await t.db.select({ n: count() }).from(fileDigests))[0]!.n;

async function info(query = '', c = cookie) {
  const res = await t.app.inject({ method: 'GET', url: `/api/products/pce/download${query}`, headers: { cookie: c } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{
    url: string;
    expiresAt: string;
    filename: string;
    version: string;
    size: number;
    sha256: string;
    releaseNotesUrl: string | null;
  }>();
}

/** Replaces whatever is in the releases folder. */
function resetReleases(files: Record<string, Buffer | string> = {}) {
  rmSync(dir, { recursive: true, force: true });
  if (Object.keys(files).length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
}

beforeAll(async () => {
  t = await buildTestApp();
  dir = t.config.releases.dir;
  cookie = await t.signIn('iso@example.com');
});
afterAll(() => t.close());

describe('GET /api/products/pce/download', () => {
  beforeEach(() => resetReleases());

  it('answers 401 when signed out, even with a bad query', async () => {
    for (const url of ['/api/products/pce/download', '/api/products/pce/download?refresh=maybe']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please sign in to continue' });
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('creates a 2 MiB demo ISO and its manifest on a fresh start, and describes it', async () => {
    const body = await info();
    expect(body).toMatchObject({
      filename: 'pce-1.0.0-demo.iso',
      version: '1.0.0-demo',
      size: 2 * 1024 * 1024,
      releaseNotesUrl: null,
    });
    const bytes = readFileSync(path.join(dir, 'pce-1.0.0-demo.iso'));
    expect(bytes.length).toBe(2 * 1024 * 1024);
    expect(body.sha256).toBe(sha(bytes));
    expect(JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'))[0]).toMatchObject({ file: 'pce-1.0.0-demo.iso' });
    expect(body.url).toMatch(
      /^http:\/\/localhost:3000\/api\/products\/pce\/files\/pce-1\.0\.0-demo\.iso\?expires=\d+&u=[0-9a-f-]{36}&sig=[A-Za-z0-9_-]{43}$/,
    );
    const ttl = (Date.parse(body.expiresAt) - t.clock.now().getTime()) / 1000;
    expect(ttl).toBeGreaterThan(t.config.downloadUrlTtlSeconds / 2 - 1);
    expect(ttl).toBeLessThanOrEqual(t.config.downloadUrlTtlSeconds);
    // Deterministic: recreating gives the same bytes.
    resetReleases();
    expect((await info()).sha256).toBe(body.sha256);
  });

  it('answers the same URL until it nears expiry; refresh=true issues a new one', async () => {
    const a = await info();
    const b = await info();
    expect(b.url).toBe(a.url);
    const fresh = await info('?refresh=true');
    expect(fresh.filename).toBe(a.filename);
    t.clock.advance(1000);
    const refreshed = await info('?refresh=true');
    expect(refreshed.url).not.toBe(a.url);
    expect(Date.parse(refreshed.expiresAt) - t.clock.now().getTime()).toBeGreaterThan(
      (t.config.downloadUrlTtlSeconds - 1) * 1000,
    );
    // Half the lifetime later the old URL would be nearing expiry: a new one is answered.
    t.clock.advance((t.config.downloadUrlTtlSeconds / 2) * 1000);
    const later = await info();
    expect(later.url).not.toBe(a.url);
    expect(Date.parse(later.expiresAt)).toBeGreaterThan(Date.parse(a.expiresAt));
  });

  it('computes the SHA-256 once and keeps it in file_digests, until the file changes', async () => {
    const spy = vi.spyOn(t.app.ctx.services.products.storage, 'sha256');
    try {
      const first = await info();
      const rows = await t.db
        .select()
        .from(fileDigests)
        .where(eq(fileDigests.path, path.join(dir, first.filename)));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ sha256: first.sha256, size: first.size });
      const calls = spy.mock.calls.length;
      await info();
      await info('?refresh=true');
      expect(spy.mock.calls.length).toBe(calls);
      // A replaced file (new size and time) is hashed again.
      const file = path.join(dir, first.filename);
      writeFileSync(file, Buffer.from('a different image'));
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const second = await info();
      expect(second.sha256).toBe(sha(Buffer.from('a different image')));
      expect(spy.mock.calls.length).toBe(calls + 1);
    } finally {
      spy.mockRestore();
    }
  });

  it('hashes a file once when many ask at the same time', async () => {
    const spy = vi.spyOn(t.app.ctx.services.products.storage, 'sha256');
    try {
      resetReleases({ 'pce-9.0.0.iso': Buffer.alloc(300_000, 7) });
      const answers = await Promise.all(Array.from({ length: 5 }, () => info()));
      expect(new Set(answers.map((a) => a.sha256)).size).toBe(1);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('does not hash a file again for a request whose read of file_digests missed the row another had just written', async () => {
    const spy = vi.spyOn(t.app.ctx.services.products.storage, 'sha256');
    try {
      resetReleases({ 'pce-9.1.0.iso': Buffer.alloc(1_000, 9) });
      const first = await info();
      // A busy database: the next request's read began before the first one's write landed.
      await t.db.delete(fileDigests);
      expect((await info()).sha256).toBe(first.sha256);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('offers the first release of releases.json with its version and release notes', async () => {
    resetReleases({
      'pce-8.2.0.iso': 'new',
      'pce-8.1.0.iso': 'old',
      [MANIFEST_FILE]: JSON.stringify([
        { version: '8.2.0', file: 'pce-8.2.0.iso', releaseNotesUrl: 'https://docs.example.com/8.2', publishedAt: '2026-01-01' },
        { version: '8.1.0', file: 'pce-8.1.0.iso', releaseNotesUrl: null, publishedAt: '2025-06-01' },
      ]),
    });
    expect(await info()).toMatchObject({
      filename: 'pce-8.2.0.iso',
      version: '8.2.0',
      size: 3,
      releaseNotesUrl: 'https://docs.example.com/8.2',
      sha256: sha(Buffer.from('new')),
    });
    // The manifest names a file not uploaded yet: the next release is offered meanwhile.
    rmSync(path.join(dir, 'pce-8.2.0.iso'));
    expect(await info()).toMatchObject({ filename: 'pce-8.1.0.iso', version: '8.1.0' });
  });

  it('accepts a manifest of the form { releases: [...] }', async () => {
    resetReleases({ 'x.iso': 'x', [MANIFEST_FILE]: JSON.stringify({ releases: [{ version: '2.0', file: 'x.iso' }] }) });
    expect(await info()).toMatchObject({ filename: 'x.iso', version: '2.0', releaseNotesUrl: null });
  });

  it('without a manifest offers the newest *.iso by modification time, version from the name', async () => {
    resetReleases({ 'pce-7.0.0.iso': 'seven', 'pce-6.5.1.iso': 'six', 'notes.txt': 'not an image' });
    const now = Date.now() / 1000;
    utimesSync(path.join(dir, 'pce-7.0.0.iso'), now - 100, now - 100);
    utimesSync(path.join(dir, 'pce-6.5.1.iso'), now, now);
    expect(await info()).toMatchObject({ filename: 'pce-6.5.1.iso', version: '6.5.1', releaseNotesUrl: null });
    // No demo when the folder holds anything.
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'pce-6.5.1.iso', 'pce-7.0.0.iso']);
  });

  it('answers 503 with a clear message for a broken manifest, and 404 when no ISO exists', async () => {
    resetReleases({ [MANIFEST_FILE]: '{ not json' });
    const broken = await t.app.inject({ method: 'GET', url: '/api/products/pce/download', headers: { cookie } });
    expect(broken.statusCode).toBe(503);
    expect(broken.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The download is temporarily unavailable. Please try again later.',
    });
    resetReleases({ [MANIFEST_FILE]: JSON.stringify([{ version: '1', file: '../etc/passwd' }]) });
    expect((await t.app.inject({ method: 'GET', url: '/api/products/pce/download', headers: { cookie } })).statusCode).toBe(503);
    resetReleases({ 'readme.txt': 'no images here' });
    const none = await t.app.inject({ method: 'GET', url: '/api/products/pce/download', headers: { cookie } });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'No PCE release is available for download yet. Please check back later.',
    });
  });

  it.each([
    ['?refresh=maybe', 'refresh must be "true" or "false"'],
    ['?refresh=true&x=1', 'Unknown field in the query: x'],
  ])('refuses %s with 400 and changes nothing', async (query, message) => {
    const before = await digestCount();
    const res = await t.app.inject({ method: 'GET', url: `/api/products/pce/download${query}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    expect(await digestCount()).toBe(before);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('GET /api/products/pce/files/{filename}', () => {
  let url: string;
  let bytes: Buffer;
  beforeAll(async () => {
    resetReleases();
    url = (await info()).url;
    bytes = readFileSync(path.join(dir, 'pce-1.0.0-demo.iso'));
  });

  it('serves the whole file without a session, as an attachment, with validators', async () => {
    const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-disposition']).toBe('attachment; filename="pce-1.0.0-demo.iso"');
    expect(res.headers['content-type']).toBe('application/x-iso9660-image');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers['last-modified']).toBeTruthy();
    expect(sha(res.rawPayload)).toBe(sha(bytes));
    // Usable again and again until it expires.
    const again = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(sha(again.rawPayload)).toBe(sha(bytes));
  });

  it('resumes: the first half, then the rest with Range, concatenate to the same SHA-256', async () => {
    const half = Math.floor(bytes.length / 2);
    const first = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: `bytes=0-${half - 1}` } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-${half - 1}/${bytes.length}`);
    expect(first.headers['content-length']).toBe(String(half));
    const rest = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: `bytes=${half}-` } });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes ${half}-${bytes.length - 1}/${bytes.length}`);
    const whole = Buffer.concat([first.rawPayload, rest.rawPayload]);
    expect(whole.length).toBe(bytes.length);
    expect(sha(whole)).toBe((await info()).sha256);
  });

  it('serves a suffix range and clamps an end past the file', async () => {
    const tail = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: 'bytes=-100' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const clamped = await t.app.inject({
      method: 'GET',
      url: pathOf(url),
      headers: { range: `bytes=${bytes.length - 10}-99999999999` },
    });
    expect(clamped.statusCode).toBe(206);
    expect(clamped.headers['content-range']).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`);
    expect(clamped.rawPayload.length).toBe(10);
  });

  it.each(['bytes=abc', 'bytes=5-2', 'items=0-1', 'bytes=', 'bytes=-0', 'bytes=--1', 'bytes=0-1,x', `bytes=${2 * 1024 * 1024}-`])(
    'answers 416 with Content-Range bytes */size to Range: %s',
    async (range) => {
      const res = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range } });
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${bytes.length}`);
      expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('range') });
    },
  );

  it('answers several ranges with the whole file', async () => {
    const res = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: 'bytes=0-1,5-6' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(bytes.length);
  });

  it('answers 304 to a matching If-None-Match, and ignores Range when If-Range does not match', async () => {
    const head = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: 'bytes=0-0' } });
    const etag = head.headers.etag as string;
    const cached = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    const stale = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: 'bytes=0-9', 'if-range': '"old"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
    const same = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(same.statusCode).toBe(206);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: pathOf(url) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 403 with the error shape to a tampered, truncated or incomplete link', async () => {
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const cases = [
      withParam(url, 'sig', flipped),
      withParam(url, 'sig', sig.slice(0, 20)),
      withParam(url, 'sig', null),
      withParam(url, 'sig', ''),
      withParam(url, 'expires', String(Number(u.searchParams.get('expires')) + 3600)),
      withParam(url, 'expires', 'soon'),
      withParam(url, 'expires', null),
      withParam(url, 'u', '00000000-0000-0000-0000-000000000000'),
      withParam(url, 'u', null),
      pathOf(url).replace('pce-1.0.0-demo.iso', 'releases.json'),
      pathOf(url).replace('pce-1.0.0-demo.iso', '..%2F..%2Fdownload-secret'),
    ];
    for (const path of cases) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toEqual({
        code: 'FORBIDDEN',
        message: 'This download link is not valid. Get a new one on the Download ISO page.',
      });
    }
  });

  it('refuses unknown query fields with 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${pathOf(url)}&extra=1` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unknown field in the query: extra');
  });

  it('answers 410 with the error shape once the link has expired', async () => {
    const fresh = await info('?refresh=true');
    expect((await t.app.inject({ method: 'GET', url: pathOf(fresh.url), headers: { range: 'bytes=0-0' } })).statusCode).toBe(206);
    t.clock.set(new Date(Date.parse(fresh.expiresAt)));
    const res = await t.app.inject({ method: 'GET', url: pathOf(fresh.url) });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({
      code: 'LINK_EXPIRED',
      message: 'This download link has expired. Get a new one on the Download ISO page.',
    });
    // A tampered and expired link is still 403: the expiry is only read from a genuine link.
    expect((await t.app.inject({ method: 'GET', url: withParam(fresh.url, 'sig', 'x'.repeat(43)) })).statusCode).toBe(403);
  });

  it('answers 404 when the signed file is no longer there', async () => {
    const fresh = await info('?refresh=true');
    rmSync(path.join(dir, fresh.filename));
    const res = await t.app.inject({ method: 'GET', url: pathOf(fresh.url) });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});

describe('a vendor setup without the demo release', () => {
  let v: TestApp;
  beforeAll(async () => {
    v = await buildTestApp({ DEMO_RELEASE: 'false' });
  });
  afterAll(() => v.close());

  it('answers 404 and creates nothing when no release was uploaded', async () => {
    const c = await v.signIn('vendor@example.com');
    const res = await v.app.inject({ method: 'GET', url: '/api/products/pce/download', headers: { cookie: c } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No PCE release is available for download yet. Please check back later.');
    expect(existsSync(v.config.releases.dir)).toBe(false);
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['', { kind: 'full' }],
    ['bytes=0-99', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=500-', { kind: 'partial', range: { start: 500, end: 999 } }],
    ['bytes=-1', { kind: 'partial', range: { start: 999, end: 999 } }],
    ['bytes=-5000', { kind: 'partial', range: { start: 0, end: 999 } }],
    ['bytes=990-5000', { kind: 'partial', range: { start: 990, end: 999 } }],
    ['Bytes = 1 - 2', { kind: 'partial', range: { start: 1, end: 2 } }],
    ['bytes=0-0,10-20', { kind: 'full' }],
    ['bytes=2000-,0-1', { kind: 'full' }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=1000-,2000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=9-1', { kind: 'unsatisfiable' }],
    ['bytes=-', { kind: 'unsatisfiable' }],
    ['bytes=a-b', { kind: 'unsatisfiable' }],
    ['bytes=1.5-2', { kind: 'unsatisfiable' }],
    ['bytes=0-1,', { kind: 'unsatisfiable' }],
    ['items=0-1', { kind: 'unsatisfiable' }],
    ['0-1', { kind: 'unsatisfiable' }],
    ['bytes=0-9999999999999999999', { kind: 'unsatisfiable' }],
  ])('reads %j of a 1000-byte file', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('finds nothing satisfiable in an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('expiryFor', () => {
  it('aligns to half-lifetime windows, so one window shares one URL with at least half its life left', () => {
    const ttl = 3600;
    for (const now of [1_000_000, 1_000_001, 1_001_799]) {
      const e = expiryFor(now, ttl, false);
      expect(e - now).toBeGreaterThan(ttl / 2);
      expect(e - now).toBeLessThanOrEqual(ttl);
    }
    expect(expiryFor(1_000_800, ttl, false)).toBe(expiryFor(1_000_801, ttl, false));
    expect(expiryFor(1_000_801, ttl, false)).not.toBe(expiryFor(1_000_801 + 1800, ttl, false));
    expect(expiryFor(1_000_801, ttl, true)).toBe(1_000_801 + ttl);
  });
});

describe('matchesEtag', () => {
  it('compares weakly and understands lists and *', () => {
    expect(matchesEtag('"a-1"', '"a-1"')).toBe(true);
    expect(matchesEtag('W/"a-1"', '"a-1"')).toBe(true);
    expect(matchesEtag('"x", "a-1"', '"a-1"')).toBe(true);
    expect(matchesEtag('*', '"a-1"')).toBe(true);
    expect(matchesEtag('"a-2"', '"a-1"')).toBe(false);
    expect(matchesEtag(undefined, '"a-1"')).toBe(false);
  });
});
