import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MANIFEST_FILE,
  ReleaseManifestError,
  createDemoRelease,
  createUrlSigner,
  demoIsoBytes,
  downloadSecret,
  localReleaseStorage,
  versionFromName,
} from './storage';

const log = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
const now = () => new Date('2026-03-01T12:00:00Z');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'releases-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('demo release', () => {
  const demo = { product: 'PCE', version: '1.0.0' };

  it('is deterministic: the same 2 MiB for the same product and version', () => {
    const a = demoIsoBytes(demo);
    expect(a.length).toBe(2 * 1024 * 1024);
    expect(createHash('sha256').update(a).digest('hex')).toBe(createHash('sha256').update(demoIsoBytes(demo)).digest('hex'));
    expect(a.subarray(0, 20).toString()).toBe('PCE 1.0.0 demo image');
    expect(demoIsoBytes({ product: 'PCE', version: '2.0.0' }).equals(a)).toBe(false);
  });

  it('is created once when several instances start on one folder at the same time', async () => {
    const target = path.join(dir, 'downloads');
    await Promise.all(Array.from({ length: 8 }, () => createDemoRelease(target, demo, now())));
    expect(readdirSync(target).sort()).toEqual(['pce-1.0.0-demo.iso', MANIFEST_FILE]);
    expect(readFileSync(path.join(target, 'pce-1.0.0-demo.iso')).equals(demoIsoBytes(demo))).toBe(true);
    const storages = Array.from({ length: 4 }, () => localReleaseStorage({ dir: path.join(dir, 'other'), log, now, demo }));
    const releases = await Promise.all(storages.map((s) => s.latest()));
    expect(new Set(releases.map((r) => r?.file))).toEqual(new Set(['pce-1.0.0-demo.iso']));
    expect(readdirSync(path.join(dir, 'other')).sort()).toEqual(['pce-1.0.0-demo.iso', MANIFEST_FILE]);
  });

  it('is not created when the folder holds anything, or when turned off', async () => {
    writeFileSync(path.join(dir, 'readme.txt'), 'x');
    expect(await localReleaseStorage({ dir, log, now, demo }).latest()).toBeNull();
    expect(readdirSync(dir)).toEqual(['readme.txt']);
    const empty = path.join(dir, 'empty');
    expect(await localReleaseStorage({ dir: empty, log, now, demo: null }).latest()).toBeNull();
    expect(() => readdirSync(empty)).toThrow();
  });

  it('names the file after the product, lower-cased and made safe', async () => {
    const s = localReleaseStorage({ dir, log, now, demo: { product: 'Acme Cloud Engine', version: '1.0.0' } });
    expect((await s.latest())?.file).toBe('acme-cloud-engine-1.0.0-demo.iso');
  });
});

describe('releases folder', () => {
  it('never resolves a path outside the folder, nor the manifest', async () => {
    writeFileSync(path.join(dir, 'a.iso'), 'a');
    const s = localReleaseStorage({ dir, log, now });
    expect(await s.find('a.iso')).toMatchObject({ file: 'a.iso', size: 1 });
    for (const name of ['../a.iso', '/etc/passwd', '.hidden', MANIFEST_FILE, 'a b.iso', ''])
      expect(await s.find(name)).toBeNull();
  });

  it('reads the whole file or a byte range', async () => {
    writeFileSync(path.join(dir, 'a.iso'), '0123456789');
    const s = localReleaseStorage({ dir, log, now });
    const file = (await s.find('a.iso'))!;
    const read = async (range?: { start: number; end: number }) => {
      const chunks: Buffer[] = [];
      for await (const c of s.read(file, range)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString();
    };
    expect(await read()).toBe('0123456789');
    expect(await read({ start: 2, end: 4 })).toBe('234');
    expect(await s.sha256(file)).toBe(createHash('sha256').update('0123456789').digest('hex'));
  });

  it('reports a broken manifest as such', async () => {
    const s = localReleaseStorage({ dir, log, now });
    for (const text of [
      'nope',
      '[]',
      JSON.stringify([{ file: 'a.iso' }]),
      JSON.stringify([{ version: '1', file: 'sub/a.iso' }]),
    ]) {
      writeFileSync(path.join(dir, MANIFEST_FILE), text);
      await expect(s.latest()).rejects.toBeInstanceOf(ReleaseManifestError);
    }
  });

  it.each([
    ['pce-8.2.1.iso', '8.2.1'],
    ['pce-1.0.0-demo.iso', '1.0.0-demo'],
    ['PCE_v9.0.ISO', '9.0'],
    ['pce-2025.1-rc1.iso', '2025.1-rc1'],
    ['installer.iso', 'installer'],
  ])('takes the version of %s as %s', (file, version) => {
    expect(versionFromName(file)).toBe(version);
  });
});

describe('URL signatures', () => {
  it('covers the file, the expiry and the user', () => {
    const s = createUrlSigner('k'.repeat(32));
    const sig = s.sign('a.iso', 100, 'u1');
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.verify('a.iso', 100, 'u1', sig)).toBe(true);
    expect(s.verify('b.iso', 100, 'u1', sig)).toBe(false);
    expect(s.verify('a.iso', 101, 'u1', sig)).toBe(false);
    expect(s.verify('a.iso', 100, 'u2', sig)).toBe(false);
    expect(s.verify('a.iso', 100, 'u1', sig.slice(0, 42))).toBe(false);
    expect(createUrlSigner('other'.repeat(8)).verify('a.iso', 100, 'u1', sig)).toBe(false);
  });

  it('keeps one secret in the data folder, also when two processes create it at once', async () => {
    const secrets = await Promise.all(Array.from({ length: 6 }, () => downloadSecret(undefined, dir)));
    expect(new Set(secrets).size).toBe(1);
    expect(readFileSync(path.join(dir, 'download-secret'), 'utf8').trim()).toBe(secrets[0]);
    expect(await downloadSecret('configured-secret-of-32-characters!', dir)).toBe('configured-secret-of-32-characters!');
  });
});
