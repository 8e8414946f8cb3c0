import {
  LICENSE_EXPIRING_SOON_DAYS,
  type ActivateResponse,
  type License,
  type LicenseFile,
  type LicenseNode,
  type LicenseStatus,
  type LicenseSummary,
  type Page,
  type PublicKeyResponse,
  type ValidateResponse,
} from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import { generateLicenseKey, shortKey } from './license-key';
import {
  licensesRepository as repo,
  prepareOwnerQueries,
  prepareValidationQueries,
  type LicenseRow,
  type NodeRow,
} from './licenses.repository';
import { canonicalJson, loadSigner, type LicenseSigner } from './signing';

export type LicenseServiceDeps = {
  config: Pick<Config, 'dataDir' | 'licenseSigningKey'>;
  db: Db;
  clock: Clock;
  /** The server's logger, or anything with a warn(details, message) (the CLI). */
  log: { warn: (details: Record<string, unknown>, message: string) => void };
  audit: AuditService;
  /** How long validation buffers last-seen times before writing them in one statement. */
  lastSeenFlushMs?: number;
  /** A ready signer (tests, or a caller that loaded one already); else loaded from config. */
  signer?: LicenseSigner;
};

export type IssueInput = {
  userId: string | null;
  subscriptionId: string | null;
  maxNodes: number;
  expiresAt: Date;
  actor: string;
};

/** A license for the vendor's command line, with its owner. */
export type VendorLicense = {
  key: string;
  status: LicenseStatus;
  maxNodes: number;
  activeNodes: number;
  expiresAt: Date;
  createdAt: Date;
  email: string | null;
  stripeId: string | null;
};

export type LicenseExport = {
  licenseKey: string;
  status: LicenseStatus;
  maxNodes: number;
  expiresAt: string;
  createdAt: string;
  revokedAt: string | null;
  nodes: LicenseNode[];
};

/** Actor of changes made by a machine holding only the key (no session involved). */
export const KEY_HOLDER_ACTOR = 'license-key';

const DAY_MS = 86_400_000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Expiry is computed from the stored date, so an ended period needs no scheduled job. */
export function statusOf(license: Pick<LicenseRow, 'status' | 'expiresAt'>, now: Date): LicenseStatus {
  if (license.status === 'suspended') return 'suspended';
  if (license.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const nodeLabel = (n: Pick<NodeRow, 'hostname' | 'fingerprint'>) =>
  n.hostname || (n.fingerprint.length > 24 ? `${n.fingerprint.slice(0, 24)}…` : n.fingerprint);

/**
 * Licenses and their nodes: issuing (billing, the vendor CLI), activation and validation by
 * machines holding only the key, the owner's views, and signed answers.
 */
export function createLicenseService(deps: LicenseServiceDeps) {
  const { db, clock, audit } = deps;
  const validation = prepareValidationQueries(db);
  const owner = prepareOwnerQueries(db);
  let signer =
    deps.signer ??
    // A configured key is read at start-up, so a bad value stops the server with a clear message.
    (deps.config.licenseSigningKey
      ? loadSigner({ configuredPem: deps.config.licenseSigningKey, dataDir: deps.config.dataDir })
      : undefined);
  /** Generated on first use, so processes that never sign (a CLI listing) never write a key file. */
  const getSigner = () => (signer ??= loadSigner({ configuredPem: deps.config.licenseSigningKey, dataDir: deps.config.dataDir }));

  // Last-seen times from validation, written in batches: a busy fleet validating every minute
  // must not turn each check into a write. Per instance; a lost batch only loses recency.
  const flushMs = deps.lastSeenFlushMs ?? 5_000;
  const pendingSeen = new Map<string, Date>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  async function noteSeen(nodeId: string, at: Date) {
    const prev = pendingSeen.get(nodeId);
    if (!prev || prev < at) pendingSeen.set(nodeId, at);
    // While the app closes, nothing would flush later: write before answering.
    if (closed) return flushLastSeen();
    if (!flushTimer) {
      flushTimer = setTimeout(() => {
        flushTimer = undefined;
        void flushLastSeen();
      }, flushMs);
      flushTimer.unref();
    }
  }

  /** Writes every buffered last-seen time in one statement; a failed batch is kept for the next try. */
  function flushLastSeen(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pendingSeen.size === 0) return;
      const batch = [...pendingSeen];
      pendingSeen.clear();
      try {
        await repo.updateLastSeen(db, batch);
      } catch (err) {
        deps.log.warn({ err, nodes: batch.length }, 'could not write last-seen times; keeping them for the next flush');
        for (const [id, at] of batch) {
          const prev = pendingSeen.get(id);
          if (!prev || prev < at) pendingSeen.set(id, at);
        }
      }
    });
    return flushing;
  }

  const lastSeenOf = (n: NodeRow) => {
    const pending = pendingSeen.get(n.id);
    return pending && pending > n.lastSeenAt ? pending : n.lastSeenAt;
  };

  const toNode = (n: NodeRow): LicenseNode => ({
    id: n.id,
    fingerprint: n.fingerprint,
    hostname: n.hostname,
    activatedAt: n.activatedAt.toISOString(),
    lastSeenAt: lastSeenOf(n).toISOString(),
  });

  const toLicense = (l: LicenseRow, stripeId: string | null, now: Date): License => ({
    licenseKey: l.key,
    status: statusOf(l, now),
    maxNodes: l.maxNodes,
    activeNodes: l.activeNodes,
    expiresAt: l.expiresAt.toISOString(),
    createdAt: l.createdAt.toISOString(),
    stripeId,
  });

  /** The owner's license; with `lock`, under the row lock that activation takes too. */
  async function ownedOrNotFound(tx: Tx, userId: string, key: string, lock = false) {
    const license = await (lock ? repo.lockOwned(tx, userId, key) : repo.findOwned(tx, userId, key));
    if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
    return license;
  }

  function inactiveMessage(license: LicenseRow, status: LicenseStatus) {
    if (status === 'suspended') {
      const what = license.revokedAt ? `was revoked on ${day(license.revokedAt)}` : 'is suspended';
      return `This license ${what}, so no node can be activated on it. Contact support if you think this is a mistake.`;
    }
    return `This license expired on ${day(license.expiresAt)}, so no node can be activated on it. Renew the subscription to use it again.`;
  }

  async function issue(tx: Tx, input: IssueInput): Promise<{ id: string; key: string }> {
    if (!Number.isInteger(input.maxNodes) || input.maxNodes < 1) {
      throw new AppError('VALIDATION_FAILED', 'A license admits at least 1 node');
    }
    if (Number.isNaN(input.expiresAt.getTime())) throw new AppError('VALIDATION_FAILED', 'The expiry date is not valid');
    const now = clock.now();
    // 119 random bits make a collision practically impossible; the unique index has the last word.
    for (let attempt = 0; attempt < 5; attempt++) {
      const key = generateLicenseKey();
      const row = await repo.insertLicense(tx, {
        key,
        userId: input.userId,
        subscriptionId: input.subscriptionId,
        maxNodes: input.maxNodes,
        expiresAt: input.expiresAt,
        now,
      });
      if (!row) continue;
      await audit.record(tx, {
        userId: input.userId,
        actor: input.actor,
        action: 'license_issued',
        subjectType: 'license',
        subjectId: row.id,
        summary: `Issued license ${shortKey(key)} for ${plural(input.maxNodes, 'node')}, valid until ${day(input.expiresAt)}`,
        data: { maxNodes: input.maxNodes, expiresAt: input.expiresAt.toISOString(), subscriptionId: input.subscriptionId },
      });
      return { id: row.id, key };
    }
    throw new AppError('INTERNAL', 'Could not generate a unique license key');
  }

  /**
   * Activates `fingerprint` on the license of `key`. The license row is locked first, so parallel
   * activations read and move its node count one after another and the limit holds exactly.
   */
  async function activate(
    key: string,
    input: { fingerprint: string; hostname?: string | undefined },
  ): Promise<{ created: boolean; answer: ActivateResponse }> {
    const hostname = input.hostname?.trim() || null;
    return db.transaction(async (tx) => {
      const license = await repo.lockByKey(tx, key);
      if (!license) throw new AppError('NOT_FOUND', 'No license has this key. Check the key and try again.');
      const now = clock.now();
      const status = statusOf(license, now);
      if (status !== 'active') throw new AppError('LICENSE_INACTIVE', inactiveMessage(license, status));

      const existing = await repo.findNodeByFingerprint(tx, license.id, input.fingerprint);
      let node: NodeRow;
      let created = false;
      let activeNodes = license.activeNodes;
      if (existing) {
        node = await repo.touchNode(tx, existing.id, { hostname, now });
      } else {
        if (license.activeNodes >= license.maxNodes) {
          throw new AppError(
            'NODE_LIMIT_REACHED',
            `This license allows ${plural(license.maxNodes, 'node')} and all of them are in use. ` +
              'To free a slot, release a node you no longer use on the Licenses page of the portal, or raise the subscription quantity; then activate again.',
          );
        }
        node = await repo.insertNode(tx, { licenseId: license.id, fingerprint: input.fingerprint, hostname, now });
        activeNodes = await repo.addActiveNodes(tx, license.id, 1);
        created = true;
        await audit.record(tx, {
          userId: license.userId,
          actor: KEY_HOLDER_ACTOR,
          action: 'node_activated',
          subjectType: 'node',
          subjectId: node.id,
          summary: `Activated node ${nodeLabel(node)} on license ${shortKey(key)}`,
          data: { licenseId: license.id, fingerprint: node.fingerprint, hostname: node.hostname },
        });
      }
      const { stripeId: _omit, ...licenseView } = toLicense({ ...license, activeNodes }, null, now);
      return { created, answer: { node: toNode(node), license: licenseView } };
    });
  }

  /**
   * Answers whether `key` (and `fingerprint` on it) may run now. The order of the checks:
   * NOT_FOUND (no such key), SUSPENDED (revoked or suspended), EXPIRED, then without a fingerprint
   * VALID (the key itself is good); with one: VALID when that node is activated,
   * NODE_LIMIT_REACHED when it is not and every slot is taken (activating it would fail), else
   * NOT_ACTIVATED (activating it would succeed).
   */
  async function validate(
    key: string,
    input: { fingerprint?: string | undefined; nonce?: string | undefined },
  ): Promise<ValidateResponse> {
    const now = clock.now();
    const base = { nonce: input.nonce ?? null, checkedAt: now.toISOString() };
    const license = await validation.findForValidation(key, input.fingerprint);
    if (!license) return { valid: false, code: 'NOT_FOUND', ...base };
    const { activeNodes, nodeId } = license;
    const status = statusOf(license, now);
    const view = {
      licenseKey: license.key,
      status,
      maxNodes: license.maxNodes,
      activeNodes,
      expiresAt: license.expiresAt.toISOString(),
    };
    const node = nodeId && input.fingerprint ? { id: nodeId, fingerprint: input.fingerprint } : undefined;
    const answer = (valid: boolean, code: ValidateResponse['code']): ValidateResponse => ({
      valid,
      code,
      license: view,
      ...(node ? { node } : {}),
      ...base,
    });
    if (status === 'suspended') return answer(false, 'SUSPENDED');
    if (status === 'expired') return answer(false, 'EXPIRED');
    if (input.fingerprint === undefined) return answer(true, 'VALID');
    if (node) {
      await noteSeen(node.id, now);
      return answer(true, 'VALID');
    }
    return answer(false, activeNodes >= license.maxNodes ? 'NODE_LIMIT_REACHED' : 'NOT_ACTIVATED');
  }

  async function listLicenses(userId: string, page: number, size: number): Promise<Page<License>> {
    const now = clock.now();
    const { rows, total } = await owner.licensesForUser(userId, size, (page - 1) * size);
    return { items: rows.map((r) => toLicense(r.license, r.stripeId, now)), page, size, total };
  }

  async function listNodes(userId: string, key: string, page: number, size: number): Promise<Page<LicenseNode>> {
    const license = await owner.findOwned(userId, key);
    if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
    const rows = await owner.nodesOfLicense(license.id, size, (page - 1) * size);
    return { items: rows.map(toNode), page, size, total: license.activeNodes };
  }

  /** Frees the slot of a retired machine; the owner's call only. */
  async function releaseNode(userId: string, key: string, nodeId: string, actor: string): Promise<void> {
    await db.transaction(async (tx) => {
      // The license's row lock before the node's, in activation's order, so the two cannot deadlock.
      const license = await ownedOrNotFound(tx, userId, key, true);
      const node = await repo.deleteNode(tx, license.id, nodeId);
      if (!node) throw new AppError('NOT_FOUND', 'This node was not found on this license');
      await repo.addActiveNodes(tx, license.id, -1);
      await audit.record(tx, {
        userId,
        actor,
        action: 'node_released',
        subjectType: 'node',
        subjectId: node.id,
        summary: `Released node ${nodeLabel(node)} from license ${shortKey(key)}`,
        data: { licenseId: license.id, fingerprint: node.fingerprint, hostname: node.hostname },
      });
    });
    pendingSeen.delete(nodeId);
  }

  /** A signed license document for sites that cannot reach the portal. */
  async function licenseFile(userId: string, key: string): Promise<LicenseFile> {
    const license = await ownedOrNotFound(db, userId, key);
    const now = clock.now();
    const content = {
      key: license.key,
      customerEmail: await repo.userEmail(db, license.userId),
      status: statusOf(license, now),
      maxNodes: license.maxNodes,
      expiresAt: license.expiresAt.toISOString(),
      issuedAt: now.toISOString(),
    };
    const s = getSigner();
    return { license: content, keyId: s.keyId, algorithm: 'Ed25519', signature: s.sign(canonicalJson(content)) };
  }

  /**
   * Applies a new subscription quantity. Lowering it below the nodes in use is refused, so a
   * customer never ends up with more active nodes than paid for.
   */
  async function resizeForSubscription(tx: Tx, subscriptionId: string, maxNodes: number, actor: string): Promise<string[]> {
    if (!Number.isInteger(maxNodes) || maxNodes < 1) throw new AppError('VALIDATION_FAILED', 'A license admits at least 1 node');
    const changed: string[] = [];
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) {
      const active = license.activeNodes;
      if (active > maxNodes) {
        throw new AppError(
          'CONFLICT',
          `This license has ${plural(active, 'active node')}. Release ${plural(active - maxNodes, 'node')} before lowering the quantity to ${maxNodes}.`,
        );
      }
      if (license.maxNodes === maxNodes) continue;
      await repo.update(tx, license.id, { maxNodes, updatedAt: clock.now() });
      await audit.record(tx, {
        userId: license.userId,
        actor,
        action: 'license_resized',
        subjectType: 'license',
        subjectId: license.id,
        summary: `Changed license ${shortKey(license.key)} from ${plural(license.maxNodes, 'node')} to ${plural(maxNodes, 'node')}`,
        data: { from: license.maxNodes, to: maxNodes },
      });
      changed.push(license.key);
    }
    return changed;
  }

  /** Moves the expiry later (a renewed or re-activated period); never earlier. */
  async function extendForSubscription(tx: Tx, subscriptionId: string, expiresAt: Date, actor: string): Promise<string[]> {
    const changed: string[] = [];
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) {
      if (license.expiresAt.getTime() >= expiresAt.getTime()) continue;
      await repo.update(tx, license.id, { expiresAt, updatedAt: clock.now() });
      await audit.record(tx, {
        userId: license.userId,
        actor,
        action: 'license_extended',
        subjectType: 'license',
        subjectId: license.id,
        summary: `Extended license ${shortKey(license.key)} until ${day(expiresAt)}`,
        data: { from: license.expiresAt.toISOString(), to: expiresAt.toISOString() },
      });
      changed.push(license.key);
    }
    return changed;
  }

  /** Ends the licenses of a subscription at `at` (an immediate cancellation); never later than they already end. */
  async function expireForSubscription(tx: Tx, subscriptionId: string, at: Date, actor: string): Promise<string[]> {
    const changed: string[] = [];
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) {
      if (license.expiresAt.getTime() <= at.getTime()) continue;
      await repo.update(tx, license.id, { expiresAt: at, updatedAt: clock.now() });
      await audit.record(tx, {
        userId: license.userId,
        actor,
        action: 'license_expired',
        subjectType: 'license',
        subjectId: license.id,
        summary: `License ${shortKey(license.key)} ends on ${day(at)}`,
        data: { from: license.expiresAt.toISOString(), to: at.toISOString() },
      });
      changed.push(license.key);
    }
    return changed;
  }

  async function revokeRow(tx: Tx, license: LicenseRow, actor: string) {
    const now = clock.now();
    await repo.update(tx, license.id, { status: 'suspended', revokedAt: now, updatedAt: now });
    await audit.record(tx, {
      userId: license.userId,
      actor,
      action: 'license_revoked',
      subjectType: 'license',
      subjectId: license.id,
      summary: `Revoked license ${shortKey(license.key)}`,
    });
  }

  /** Suspends every license of a user (account deletion); answers how many were revoked now. */
  async function revokeAllForUser(tx: Tx, userId: string, actor: string): Promise<number> {
    let revoked = 0;
    for (const license of await repo.lockByUser(tx, userId)) {
      if (license.revokedAt) continue;
      await revokeRow(tx, license, actor);
      revoked++;
    }
    return revoked;
  }

  /** Revokes one license by key (the vendor CLI); revoking twice changes nothing. */
  async function revoke(tx: Tx, key: string, actor: string): Promise<{ key: string; alreadyRevoked: boolean }> {
    const license = await repo.lockByKey(tx, key);
    if (!license) throw new AppError('NOT_FOUND', `No license has the key ${key}`);
    if (license.revokedAt) return { key, alreadyRevoked: true };
    await revokeRow(tx, license, actor);
    return { key, alreadyRevoked: false };
  }

  /** Subscription id -> license key (the newest when a subscription has several). */
  async function keysBySubscription(subscriptionIds: string[]): Promise<Map<string, string>> {
    const rows = await repo.keysBySubscription(db, subscriptionIds);
    const map = new Map<string, string>();
    for (const r of rows) if (r.subscriptionId) map.set(r.subscriptionId, r.key);
    return map;
  }

  /**
   * The dashboard's figures. `licenses` counts every license the user owns; nodes, limits,
   * `atLimit` and `expiringSoon` (within LICENSE_EXPIRING_SOON_DAYS) cover usable licenses only.
   */
  async function summaryForUser(userId: string): Promise<LicenseSummary> {
    const now = clock.now();
    const rows = await repo.allOfUser(db, userId);
    const usable = rows.filter((l) => statusOf(l, now) === 'active');
    const soon = now.getTime() + LICENSE_EXPIRING_SOON_DAYS * DAY_MS;
    return {
      licenses: rows.length,
      activeNodes: usable.reduce((n, l) => n + l.activeNodes, 0),
      maxNodes: usable.reduce((n, l) => n + l.maxNodes, 0),
      atLimit: usable.filter((l) => l.activeNodes >= l.maxNodes).map((l) => l.key),
      expiringSoon: usable
        .filter((l) => l.expiresAt.getTime() <= soon)
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .map((l) => ({ key: l.key, expiresAt: l.expiresAt.toISOString() })),
    };
  }

  /** Every license of the user with its nodes, for the personal data export. */
  async function exportForUser(userId: string): Promise<LicenseExport[]> {
    const now = clock.now();
    const rows = await repo.allOfUser(db, userId);
    const allNodes = await repo.allNodesOf(
      db,
      rows.map((l) => l.id),
    );
    return rows.map((license) => ({
      licenseKey: license.key,
      status: statusOf(license, now),
      maxNodes: license.maxNodes,
      expiresAt: license.expiresAt.toISOString(),
      createdAt: license.createdAt.toISOString(),
      revokedAt: license.revokedAt?.toISOString() ?? null,
      nodes: allNodes.filter((n) => n.licenseId === license.id).map(toNode),
    }));
  }

  /** Every license (optionally of one e-mail address), for the vendor's command line. */
  async function listAll(opts: { email?: string | undefined } = {}): Promise<VendorLicense[]> {
    const now = clock.now();
    const rows = await repo.listAll(db, opts.email);
    return rows.map((r) => ({
      key: r.license.key,
      status: statusOf(r.license, now),
      maxNodes: r.license.maxNodes,
      activeNodes: r.license.activeNodes,
      expiresAt: r.license.expiresAt,
      createdAt: r.license.createdAt,
      email: r.email,
      stripeId: r.stripeId,
    }));
  }

  /** The vendor issuing a license by hand: the account is created (not onboarded) when missing. */
  async function issueForEmail(input: { email: string; maxNodes: number; expiresAt: Date; actor: string }) {
    return db.transaction(async (tx) => {
      const user = await repo.ensureUser(tx, input.email.toLowerCase(), clock.now());
      const issued = await issue(tx, {
        userId: user.id,
        subscriptionId: null,
        maxNodes: input.maxNodes,
        expiresAt: input.expiresAt,
        actor: input.actor,
      });
      return { ...issued, userCreated: user.created };
    });
  }

  function publicKey(): PublicKeyResponse {
    const s = getSigner();
    return { keyId: s.keyId, algorithm: 'Ed25519', publicKeyPem: s.publicKeyPem };
  }

  return {
    // For billing, account deletion and the dashboard.
    issue,
    resizeForSubscription,
    extendForSubscription,
    expireForSubscription,
    revokeAllForUser,
    revoke,
    keysBySubscription,
    summaryForUser,
    exportForUser,
    // For the routes.
    activate,
    validate,
    listLicenses,
    listNodes,
    releaseNode,
    licenseFile,
    publicKey,
    /** The `Signature` header value for an answer's exact bytes. */
    signatureHeader: (body: string | Buffer) => getSigner().header(body),
    // For the vendor CLI.
    listAll,
    issueForEmail,
    // Last-seen buffering.
    flushLastSeen,
    /**
     * Flushes pending last-seen times and stops buffering (later validations write at once); call
     * before the database closes.
     */
    async close() {
      closed = true;
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      await flushLastSeen();
    },
  };
}
export type LicenseService = ReturnType<typeof createLicenseService>;
