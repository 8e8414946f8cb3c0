import path from 'node:path';
import { z } from 'zod';
import { int, optionalString, trueOrFalse } from './env-parsers';

/** Signing licenses, the validation cache, and the release downloads licensed customers fetch. */
export const LicenseEnvSchema = z.object({
  DOWNLOAD_URL_TTL_SECONDS: int(3600, 60, 7 * 24 * 3600),
  RELEASES_DIR: optionalString,
  DOWNLOAD_SECRET: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 characters (for example the output of: openssl rand -base64 32)',
  ),
  DEMO_RELEASE: trueOrFalse,
  LICENSE_SIGNING_KEY: optionalString,
  /** Nodes (plus one per license) validation keeps in memory per instance; 0 reads the database every time. */
  LICENSE_CACHE_NODES: int(1_000_000),
});
type LicenseEnv = z.output<typeof LicenseEnvSchema>;

/** `dataDir` holds the releases unless RELEASES_DIR says otherwise; the demo is on by default only without `databaseUrl`. */
export function licenseSettings(e: LicenseEnv, server: { dataDir: string; databaseUrl: string | undefined }) {
  return {
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    releases: {
      dir: path.resolve(e.RELEASES_DIR ?? path.join(server.dataDir, 'downloads')),
      /** Shared by every instance that serves downloads; else kept in $DATA_DIR/download-secret. */
      secret: e.DOWNLOAD_SECRET,
      /** A demo ISO for an empty releases folder: on by default only for the embedded setup. */
      demo: e.DEMO_RELEASE ? e.DEMO_RELEASE === 'true' : !server.databaseUrl,
    },
    licenseSigningKey: e.LICENSE_SIGNING_KEY,
    licenseCacheNodes: e.LICENSE_CACHE_NODES,
  };
}
