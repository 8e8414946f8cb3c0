import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DownloadInfo } from '@portal/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { fileDigests, users } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import {
  ReleaseManifestError,
  downloadSecret,
  createUrlSigner,
  type Release,
  type ReleaseFile,
  type ReleaseStorage,
  type UrlSigner,
} from '../../providers/storage';

/** The path of the file route; `pce` is the product's path segment of the API (`/api/products/pce/download`). */
export const FILE_ROUTE = '/api/products/pce/files';

export type ByteRange = { start: number; end: number };
export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const MAX_DIGITS = 15;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A `Range` header against a file of `size` bytes. One range is served as 206. Several ranges are
 * answered with the whole file (RFC 9110 lets a server ignore Range; multipart answers are not
 * needed). A malformed header, another unit or a range past the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined || header.trim() === '') return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: 'unsatisfiable' };
  const parts = m[1]!.split(',').map((p) => p.trim());
  const ranges: (ByteRange | null)[] = [];
  for (const part of parts) {
    const r = /^(\d*)\s*-\s*(\d*)$/.exec(part);
    if (!r || (r[1] === '' && r[2] === '') || r[1]!.length > MAX_DIGITS || r[2]!.length > MAX_DIGITS)
      return { kind: 'unsatisfiable' };
    if (r[1] === '') {
      const suffix = Number(r[2]);
      ranges.push(suffix === 0 || size === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const last = r[2] === '' ? Infinity : Number(r[2]);
    if (last < start) return { kind: 'unsatisfiable' };
    ranges.push(start >= size ? null : { start, end: Math.min(last, size - 1) });
  }
  const satisfiable = ranges.filter((r): r is ByteRange => r !== null);
  if (satisfiable.length === 0) return { kind: 'unsatisfiable' };
  if (ranges.length > 1) return { kind: 'full' };
  return { kind: 'partial', range: satisfiable[0]! };
}

/** Strong validator from size and modification time: changes whenever the file is replaced. */
export const etagOf = (file: Pick<ReleaseFile, 'size' | 'mtimeMs'>) => `"${file.size.toString(16)}-${file.mtimeMs.toString(16)}"`;

/** True when an If-None-Match header lists `etag` (or `*`); weak comparison, as RFC 9110 asks. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/**
 * The URL's expiry is aligned to windows of half the lifetime, so every request in one window gets
 * the same URL (a browser resuming or a second tab sees one link), and a URL handed out always has
 * at least half its lifetime left. `?refresh=true` issues one with the full lifetime from now.
 */
export function expiryFor(nowSeconds: number, ttlSeconds: number, refresh: boolean): number {
  if (refresh) return nowSeconds + ttlSeconds;
  const step = Math.max(1, Math.floor(ttlSeconds / 2));
  return Math.floor(nowSeconds / step) * step + ttlSeconds;
}

export function createDownloadService(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  storage: ReleaseStorage;
}) {
  const { config, db, clock, log, storage } = deps;
  let signer: Promise<UrlSigner> | undefined;
  const getSigner = () => (signer ??= downloadSecret(config.releases.secret, config.dataDir).then(createUrlSigner));
  /**
   * Each file's hashing in this process (path, size and time: a replaced file is a new key), kept
   * once done: a request whose read of the table began before another's hashing was written finds
   * the result here instead of hashing the file again. The table shares the result across instances.
   */
  const hashing = new Map<string, Promise<string>>();

  async function latestRelease(): Promise<Release> {
    let release: Release | null;
    try {
      release = await storage.latest();
    } catch (err) {
      if (!(err instanceof ReleaseManifestError)) throw err;
      log.error({ err }, 'the release manifest is broken');
      throw new AppError('SERVICE_UNAVAILABLE', 'The download is temporarily unavailable. Please try again later.');
    }
    if (!release)
      throw new AppError(
        'NOT_FOUND',
        `No ${config.brand.productName} release is available for download yet. Please check back later.`,
      );
    return release;
  }

  /** SHA-256 from the file_digests table; computed (once) when the file is new or was replaced. */
  async function digestOf(file: ReleaseFile): Promise<string> {
    const key = `${file.path}:${file.size}:${file.mtimeMs}`;
    const known = hashing.get(key);
    if (known) return known;
    const [row] = await db.select().from(fileDigests).where(eq(fileDigests.path, file.path)).limit(1);
    if (row && row.size === file.size && row.mtimeMs === file.mtimeMs) return row.sha256;
    let pending = hashing.get(key);
    if (!pending) {
      pending = (async () => {
        const sha256 = await storage.sha256(file);
        const values = { path: file.path, size: file.size, mtimeMs: file.mtimeMs, sha256, computedAt: clock.now() };
        await db.insert(fileDigests).values(values).onConflictDoUpdate({ target: fileDigests.path, set: values });
        return sha256;
      })();
      // A failed hashing is tried again by the next request.
      pending.catch(() => hashing.delete(key));
      hashing.set(key, pending);
    }
    return pending;
  }

  async function userExists(userId: string): Promise<boolean> {
    // Only ids this portal signed reach here; the check keeps anything else away from the uuid column.
    if (!UUID.test(userId)) return false;
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    return row !== undefined;
  }

  return {
    digestOf,

    /** The newest release and a signed URL for it, issued to `userId`. */
    async getDownload(userId: string, opts: { refresh: boolean }): Promise<DownloadInfo> {
      const release = await latestRelease();
      const [sha256, sign] = await Promise.all([digestOf(release), getSigner()]);
      const nowSeconds = Math.floor(clock.now().getTime() / 1000);
      const expires = expiryFor(nowSeconds, config.downloadUrlTtlSeconds, opts.refresh);
      const query = new URLSearchParams({ expires: String(expires), u: userId, sig: sign.sign(release.file, expires, userId) });
      return {
        url: `${config.publicUrl}${FILE_ROUTE}/${encodeURIComponent(release.file)}?${query.toString()}`,
        expiresAt: new Date(expires * 1000).toISOString(),
        filename: release.file,
        version: release.version,
        size: release.size,
        sha256,
        releaseNotesUrl: release.releaseNotesUrl,
      };
    },

    /**
     * Checks a download URL: the signature first (403 for anything tampered or truncated, so an
     * expiry cannot be probed), then the expiry (410), then that the account it was issued to
     * still exists (403: a deleted account's URLs stop working at once, not at their expiry),
     * then that the file still exists (404).
     */
    async openSigned(filename: string, q: { expires?: string | undefined; u?: string | undefined; sig?: string | undefined }) {
      const sign = await getSigner();
      const expires = q.expires && /^\d{1,12}$/.test(q.expires) ? Number(q.expires) : NaN;
      if (!Number.isFinite(expires) || !q.u || !q.sig || !sign.verify(filename, expires, q.u, q.sig)) {
        throw new AppError('FORBIDDEN', 'This download link is not valid. Get a new one on the Download ISO page.');
      }
      if (expires * 1000 <= clock.now().getTime()) {
        throw new AppError('LINK_EXPIRED', 'This download link has expired. Get a new one on the Download ISO page.');
      }
      if (!(await userExists(q.u))) {
        throw new AppError('FORBIDDEN', 'This download link is no longer valid: its account was deleted.');
      }
      const file = await storage.find(filename);
      if (!file) throw new AppError('NOT_FOUND', 'This release is no longer available. Get a new link on the Download ISO page.');
      return { file, userId: q.u };
    },

    /** The newest release file and its SHA-256, for GET /api/downloads/iso (a session or an API token). */
    async latestFile(): Promise<{ file: ReleaseFile; sha256: string }> {
      const release = await latestRelease();
      return { file: release, sha256: await digestOf(release) };
    },

    read: (file: ReleaseFile, range?: ByteRange) => storage.read(file, range),
  };
}
export type DownloadService = ReturnType<typeof createDownloadService>;
