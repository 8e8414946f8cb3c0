import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { link, mkdir, readFile, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { RELEASE_FILENAME_PATTERN } from '@portal/contract';
import { persistentSecret } from '../config';
import { safeEqual } from '../lib/crypto';

/** The manifest an operator writes beside the ISO files, newest release first. */
export const MANIFEST_FILE = 'releases.json';

/** A file in the releases folder, as found on disk. */
export type ReleaseFile = { file: string; path: string; size: number; mtimeMs: number };
/** The release offered for download: a file plus what the manifest says about it. */
export type Release = ReleaseFile & { version: string; releaseNotesUrl: string | null; publishedAt: string | null };

/**
 * Where release files live. Only the local folder exists today; an S3-compatible adapter would
 * implement the same interface with presigned URLs (docs/decisions/, ISO storage).
 */
export interface ReleaseStorage {
  readonly kind: 'local';
  /** The newest release, or null when there is none. Throws ReleaseManifestError for a broken manifest. */
  latest(): Promise<Release | null>;
  /** A file of the releases folder by name, or null when absent (names are never paths). */
  find(file: string): Promise<ReleaseFile | null>;
  /** Streams the whole file, or the bytes start..end inclusive, from disk. */
  read(file: ReleaseFile, range?: { start: number; end: number }): Readable;
  /** SHA-256 (hex) of the file's bytes; reads the whole file, so callers cache it. */
  sha256(file: ReleaseFile): Promise<string>;
}

export class ReleaseManifestError extends Error {}

const ManifestEntrySchema = z.object({
  version: z.string().trim().min(1).max(64),
  file: z.string().regex(RELEASE_FILENAME_PATTERN, 'must be a file name in the releases folder, not a path'),
  releaseNotesUrl: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional(),
  publishedAt: z.string().max(64).nullable().optional(),
});
/** A bare array, or `{ releases: [...] }`, newest first. */
const ManifestSchema = z.union([
  z.array(ManifestEntrySchema).min(1),
  z.object({ releases: z.array(ManifestEntrySchema).min(1) }).transform((m) => m.releases),
]);

export type DemoRelease = { product: string; version: string };

export function localReleaseStorage(opts: {
  dir: string;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Create a demo ISO and manifest when the folder is missing or empty (fresh embedded start). */
  demo?: DemoRelease | null;
}): ReleaseStorage {
  const { dir, log } = opts;

  async function statFile(file: string): Promise<ReleaseFile | null> {
    if (!RELEASE_FILENAME_PATTERN.test(file) || file === MANIFEST_FILE) return null;
    const full = path.join(dir, file);
    try {
      const s = await stat(full);
      if (!s.isFile()) return null;
      // The digest cache keys on whole milliseconds (a bigint column).
      return { file, path: full, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function readManifest(): Promise<z.output<typeof ManifestSchema> | null> {
    let text: string;
    try {
      text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ReleaseManifestError(`${MANIFEST_FILE} in ${dir} is not valid JSON`);
    }
    const parsed = ManifestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ReleaseManifestError(
        `${MANIFEST_FILE} in ${dir} is not valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
      );
    }
    return parsed.data;
  }

  async function fromManifest(entries: z.output<typeof ManifestSchema>): Promise<Release | null> {
    for (const entry of entries) {
      const found = await statFile(entry.file);
      if (found) {
        return {
          ...found,
          version: entry.version,
          releaseNotesUrl: entry.releaseNotesUrl ?? null,
          publishedAt: entry.publishedAt ?? null,
        };
      }
      // An operator who edits the manifest before the upload finishes must not take the page down.
      log.warn({ file: entry.file, dir }, 'release listed in the manifest is missing; offering the next one');
    }
    return null;
  }

  async function newestIso(names: string[]): Promise<Release | null> {
    const isos = (await Promise.all(names.filter((n) => n.toLowerCase().endsWith('.iso')).map(statFile))).filter(
      (f): f is ReleaseFile => f !== null,
    );
    isos.sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file, 'en', { numeric: true }));
    const newest = isos[0];
    return newest ? { ...newest, version: versionFromName(newest.file), releaseNotesUrl: null, publishedAt: null } : null;
  }

  async function listNames(): Promise<string[] | null> {
    try {
      return (await readdir(dir)).filter((n) => !n.startsWith('.'));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function latest(): Promise<Release | null> {
    const manifest = await readManifest();
    if (manifest) return fromManifest(manifest);
    const names = await listNames();
    if (names && names.length > 0) return newestIso(names);
    if (!opts.demo) return null;
    await createDemoRelease(dir, opts.demo, opts.now());
    log.info({ dir }, 'releases folder was empty: created a demo ISO so the download page works out of the box');
    const again = await readManifest();
    return again ? fromManifest(again) : null;
  }

  return {
    kind: 'local',
    latest,
    find: statFile,
    read(file, range) {
      return createReadStream(file.path, range ? { start: range.start, end: range.end } : {});
    },
    async sha256(file) {
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(file.path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
      return hash.digest('hex');
    },
  };
}

/** `pce-8.2.1.iso` -> `8.2.1`; `pce-1.0.0-demo.iso` -> `1.0.0-demo`; no digits -> the name without `.iso`. */
export function versionFromName(file: string): string {
  const base = file.replace(/\.iso$/i, '');
  const m = /(?:^|[-_])v?(\d+(?:\.\d+)*(?:[-+][0-9A-Za-z.]+)*)$/.exec(base) ?? /(\d+(?:\.\d+)+)/.exec(base);
  return m?.[1] ?? base;
}

export const demoFileName = (demo: DemoRelease) => `${productSlug(demo.product)}-${demo.version}-demo.iso`;
export const productSlug = (product: string) =>
  product
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'product';

const DEMO_SIZE = 2 * 1024 * 1024;

/** 2 MiB of deterministic bytes: a readable header, then a xorshift stream seeded by product and version. */
export function demoIsoBytes(demo: DemoRelease): Buffer {
  const out = Buffer.alloc(DEMO_SIZE);
  const header = Buffer.from(
    `${demo.product} ${demo.version} demo image.\n` +
      'This file stands in for the real installer so the download page works out of the box.\n' +
      'Put the real ISO and a releases.json manifest into the releases folder to replace it.\n',
  );
  header.copy(out, 0);
  let x =
    createHash('sha256')
      .update(`${productSlug(demo.product)}-${demo.version}-demo`)
      .digest()
      .readUInt32LE(0) || 1;
  for (let offset = 4096; offset < DEMO_SIZE; offset += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, offset);
  }
  return out;
}

/**
 * Idempotent and safe when two instances start on one shared folder at once: each file is written
 * under a private temporary name and hard-linked into place, which fails if another instance won
 * the race; the ISO goes in before the manifest that names it.
 */
export async function createDemoRelease(dir: string, demo: DemoRelease, now: Date): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = demoFileName(demo);
  await placeOnce(dir, file, demoIsoBytes(demo));
  const manifest = [{ version: `${demo.version}-demo`, file, releaseNotesUrl: null, publishedAt: now.toISOString() }];
  await placeOnce(dir, MANIFEST_FILE, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
}

async function placeOnce(dir: string, name: string, bytes: Buffer) {
  const target = path.join(dir, name);
  if (existsSync(target)) return;
  const tmp = path.join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(tmp, bytes, { flag: 'wx' });
  try {
    await link(tmp, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/** HMAC-SHA256 over the file name, the expiry and the user it was issued to. */
export function createUrlSigner(secret: string) {
  const mac = (file: string, expires: number, userId: string) =>
    createHmac('sha256', secret).update(`download/v1\n${file}\n${expires}\n${userId}`).digest('base64url');
  return {
    sign: (file: string, expires: number, userId: string) => mac(file, expires, userId),
    verify: (file: string, expires: number, userId: string, sig: string) => safeEqual(mac(file, expires, userId), sig),
  };
}
export type UrlSigner = ReturnType<typeof createUrlSigner>;

/**
 * DOWNLOAD_SECRET when set (needed when several instances serve downloads), else a secret kept in
 * $DATA_DIR. Two processes creating it at once: the loser of the exclusive create reads the winner's.
 */
export async function downloadSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'download-secret');
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const value = persistentSecret(dataDir, 'download-secret');
      if (value) return value;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // The other writer has created the file but may not have written its line yet.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const value = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (value) return value;
  }
  throw new Error(`Could not read or create ${file}`);
}

function isMissing(err: unknown) {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
