import type { Db } from '../../db/client';
import type { Notifications } from '../../db/notifications';
import type { Clock } from '../../lib/clock';
import type { Config } from '../../config';
import type { AuditService } from '../audit/audit.service';
import type { UserService } from '../users/users.service';
import { createActivation } from './activation';
import { createLastSeenBuffer, ROWS_PER_STATEMENT } from './last-seen-buffer';
import { createLicenseChanges } from './license-changes';
import { createSigning, licenseFile } from './license-files';
import { prepareValidationQueries } from './licenses.repository';
import { createOwnerViews } from './owner-views';
import type { LicenseSigner } from './signing';
import { createValidation } from './validation';
import { createValidationCache } from './validation-cache';
import { createVendorCalls } from './vendor';

export type { IssueInput } from './license-changes';
export type { LicenseExport } from './owner-views';
export type { VendorLicense } from './vendor';
export { KEY_HOLDER_ACTOR, licenseStatusWhere, statusOf, suspensionMessageOf, toLicense } from './license-rules';

export type LicenseServiceDeps = {
  config: Pick<Config, 'dataDir' | 'licenseSigningKey'> & { licenseCacheNodes?: number };
  db: Db;
  clock: Clock;
  /** The server's logger, or anything with a warn(details, message) (the CLI). */
  log: { warn: (details: Record<string, unknown>, message: string) => void };
  audit: AuditService;
  /** The vendor issuing a license to an address that has no account yet creates one. */
  users: Pick<UserService, 'findOrCreateByEmail'>;
  /** How long validation buffers last-seen times before writing them in one statement. */
  lastSeenFlushMs?: number;
  /** The database runs its statements in this thread (the embedded one): flushes write smaller statements. */
  databaseInThread?: boolean | undefined;
  /** A ready signer (tests, or a caller that loaded one already); else loaded from config. */
  signer?: LicenseSigner;
  /**
   * The database's notifications: with them, validation answers from memory kept current by the
   * database (validation-cache.ts); without (the vendor CLI), every validation reads the database.
   */
  notifications?: Notifications | undefined;
};

/**
 * Licenses and their nodes: issuing (billing, the vendor CLI), activation and validation by
 * machines holding only the key, the owner's views, and signed answers. Each part lives in a file
 * of its own; this puts them together.
 */
export function createLicenseService(deps: LicenseServiceDeps) {
  const { db, clock, audit } = deps;
  const queries = prepareValidationQueries(db);
  const cache =
    deps.notifications && deps.config.licenseCacheNodes !== 0
      ? createValidationCache({
          queries,
          notifications: deps.notifications,
          ...(deps.config.licenseCacheNodes !== undefined ? { maxNodes: deps.config.licenseCacheNodes } : {}),
        })
      : undefined;
  const changing = (key: string) => cache?.changing(key);
  const lastSeen = createLastSeenBuffer({
    db,
    log: deps.log,
    ...(deps.lastSeenFlushMs !== undefined ? { flushMs: deps.lastSeenFlushMs } : {}),
    rowsPerStatement: deps.databaseInThread ? ROWS_PER_STATEMENT.inThread : ROWS_PER_STATEMENT.postgres,
  });
  const signing = createSigning({ config: deps.config, signer: deps.signer });
  const changes = createLicenseChanges({ clock, audit, changing });
  const activation = createActivation({ db, clock, audit, lastSeen, changing });
  const { validate } = createValidation({ clock, queries, cache, lastSeen });
  const views = createOwnerViews({ db, clock, lastSeen });
  const vendor = createVendorCalls({ db, clock, changes, users: deps.users });

  return {
    // For billing, account deletion and the dashboard.
    ...changes,
    keysBySubscription: views.keysBySubscription,
    summaryForUser: views.summaryForUser,
    exportForUser: views.exportForUser,
    // For the routes.
    activate: activation.activate,
    validate,
    listLicenses: views.listLicenses,
    listNodes: views.listNodes,
    releaseNode: activation.releaseNode,
    licenseFile: (userId: string, key: string) => licenseFile({ db, clock, signing }, userId, key),
    publicKey: signing.publicKey,
    /** The `Signature` header value for an answer's exact bytes. */
    signatureHeader: signing.signatureHeader,
    // For the vendor CLI.
    ...vendor,
    // Last-seen buffering.
    flushLastSeen: lastSeen.flush,
    /** Hits, loads and size of the validation cache (undefined without one). */
    cacheStats: () => cache?.stats(),
    /**
     * Flushes pending last-seen times and stops buffering (later validations write at once); call
     * before the database closes.
     */
    async close() {
      cache?.close();
      await lastSeen.close();
    },
  };
}
export type LicenseService = ReturnType<typeof createLicenseService>;
