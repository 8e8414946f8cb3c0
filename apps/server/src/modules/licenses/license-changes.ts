import type { Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import { generateLicenseKey } from './license-key';
import { plural } from './license-rules';
import { licensesRepository as repo, type LicenseRow } from './licenses.repository';

export type IssueInput = {
  userId: string | null;
  subscriptionId: string | null;
  maxNodes: number;
  expiresAt: Date;
  actor: string;
};

/** What a change to a subscription's licenses records, besides who and which license. */
type LicenseChange =
  { type: 'license_resized'; from: number; to: number } | { type: 'license_extended' | 'license_expired'; from: Date; to: Date };

export type LicenseChangesDeps = {
  clock: Clock;
  audit: AuditService;
  /** Told of every license this instance changes, before its transaction commits (see validation-cache.ts). */
  changing: (key: string) => void;
};

/**
 * Changes to licenses made inside a caller's transaction: issuing (billing, the vendor CLI),
 * quantity changes, renewals, cancellations and revocations (account deletion, the vendor CLI).
 */
export function createLicenseChanges(deps: LicenseChangesDeps) {
  const { clock, audit, changing } = deps;

  async function issue(tx: Tx, input: IssueInput): Promise<{ id: string; key: string }> {
    if (!Number.isInteger(input.maxNodes) || input.maxNodes < 1) {
      throw new AppError('VALIDATION_FAILED', 'A license admits at least 1 node');
    }
    if (Number.isNaN(input.expiresAt.getTime())) throw new AppError('VALIDATION_FAILED', 'The expiry date is not valid');
    const now = clock.now();
    // 119 random bits make a collision practically impossible; the unique index has the last word.
    for (let attempt = 0; attempt < 5; attempt++) {
      const key = generateLicenseKey();
      changing(key);
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
        type: 'license_issued',
        userId: input.userId,
        actor: input.actor,
        license: { id: row.id, key },
        maxNodes: input.maxNodes,
        expiresAt: input.expiresAt,
        subscriptionId: input.subscriptionId,
      });
      return { id: row.id, key };
    }
    throw new AppError('INTERNAL', 'Could not generate a unique license key');
  }

  /**
   * Each license of the subscription, locked, for which `change` answers a change: it is written,
   * recorded and announced to the validation cache. Answers the keys of the licenses changed.
   */
  async function changeEach(
    tx: Tx,
    subscriptionId: string,
    actor: string,
    change: (
      license: LicenseRow,
    ) => { patch: Pick<Partial<LicenseRow>, 'maxNodes' | 'expiresAt'>; event: LicenseChange } | undefined,
  ): Promise<string[]> {
    const changed: string[] = [];
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) {
      const c = change(license);
      if (!c) continue;
      changing(license.key);
      await repo.update(tx, license.id, { ...c.patch, updatedAt: clock.now() });
      await audit.record(tx, { ...c.event, userId: license.userId, actor, license });
      changed.push(license.key);
    }
    return changed;
  }

  function refuseBelowActive(license: LicenseRow, maxNodes: number) {
    const active = license.activeNodes;
    if (active > maxNodes) {
      throw new AppError(
        'CONFLICT',
        `This license has ${plural(active, 'active node')}. Release ${plural(active - maxNodes, 'node')} before lowering the quantity to ${maxNodes}.`,
      );
    }
  }

  /**
   * Checks, before anything is charged, that a new quantity admits every node in use (the
   * subscription's change then resizes the license itself). Writes nothing.
   */
  async function refuseShrinkBelowNodes(tx: Tx, subscriptionId: string, maxNodes: number): Promise<void> {
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) refuseBelowActive(license, maxNodes);
  }

  /**
   * Applies a new subscription quantity. Lowering it below the nodes in use is refused, so a
   * customer never ends up with more active nodes than paid for.
   */
  async function resizeForSubscription(tx: Tx, subscriptionId: string, maxNodes: number, actor: string): Promise<string[]> {
    if (!Number.isInteger(maxNodes) || maxNodes < 1) throw new AppError('VALIDATION_FAILED', 'A license admits at least 1 node');
    return changeEach(tx, subscriptionId, actor, (license) => {
      refuseBelowActive(license, maxNodes);
      if (license.maxNodes === maxNodes) return undefined;
      return { patch: { maxNodes }, event: { type: 'license_resized', from: license.maxNodes, to: maxNodes } };
    });
  }

  /** Moves the expiry later (a renewed or re-activated period); never earlier. */
  async function extendForSubscription(tx: Tx, subscriptionId: string, expiresAt: Date, actor: string): Promise<string[]> {
    return changeEach(tx, subscriptionId, actor, (license) =>
      license.expiresAt.getTime() >= expiresAt.getTime()
        ? undefined
        : { patch: { expiresAt }, event: { type: 'license_extended', from: license.expiresAt, to: expiresAt } },
    );
  }

  /** Ends the licenses of a subscription at `at` (an immediate cancellation); never later than they already end. */
  async function expireForSubscription(tx: Tx, subscriptionId: string, at: Date, actor: string): Promise<string[]> {
    return changeEach(tx, subscriptionId, actor, (license) =>
      license.expiresAt.getTime() <= at.getTime()
        ? undefined
        : { patch: { expiresAt: at }, event: { type: 'license_expired', from: license.expiresAt, to: at } },
    );
  }

  /**
   * Marks the subscription's licenses as in the grace of a failing payment until `until` (null: not
   * in grace), which validation answers and license files carry; announced to the validation cache.
   */
  async function setGraceForSubscription(tx: Tx, subscriptionId: string, until: Date | null): Promise<void> {
    for (const license of await repo.lockBySubscription(tx, subscriptionId)) {
      if ((license.graceUntil?.getTime() ?? null) === (until?.getTime() ?? null)) continue;
      changing(license.key);
      await repo.update(tx, license.id, { graceUntil: until, updatedAt: clock.now() });
    }
  }

  async function revokeRow(tx: Tx, license: LicenseRow, actor: string) {
    const now = clock.now();
    changing(license.key);
    await repo.update(tx, license.id, { status: 'suspended', revokedAt: now, updatedAt: now });
    await audit.record(tx, { type: 'license_revoked', userId: license.userId, actor, license });
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

  /** A license by key, locked, for a change by the vendor (the console); 404 when no license has it. */
  async function lockForVendor(tx: Tx, key: string): Promise<LicenseRow> {
    const license = await repo.lockByKey(tx, key);
    if (!license) throw new AppError('NOT_FOUND', 'This license was not found');
    return license;
  }

  /** A revoked license (account deletion, the CLI) stays revoked: no vendor change applies to it. */
  function refuseRevoked(license: LicenseRow, what: string) {
    if (license.revokedAt) throw new AppError('CONFLICT', `This license was revoked; it cannot be ${what}`);
  }

  /**
   * Suspends (validation answers SUSPENDED, no activation) or resumes a license (the vendor's
   * console). A revoked license (account deletion, the CLI) stays revoked; a change to the state it
   * already has is refused, so the audit log never records one that did nothing. `message` is what
   * staff tell the customer about a suspension (the portal shows it to the owner); resuming clears it.
   */
  async function setSuspended(
    tx: Tx,
    key: string,
    suspended: boolean,
    actor: string,
    message: string | null = null,
  ): Promise<LicenseRow> {
    const license = await lockForVendor(tx, key);
    refuseRevoked(license, 'suspended or resumed');
    if ((license.status === 'suspended') === suspended) {
      throw new AppError('CONFLICT', suspended ? 'This license is already suspended' : 'This license is not suspended');
    }
    const now = clock.now();
    changing(license.key);
    const status = suspended ? 'suspended' : 'active';
    const suspensionMessage = suspended ? message?.trim() || null : null;
    await repo.update(tx, license.id, { status, suspensionMessage, updatedAt: now });
    await audit.record(tx, { type: suspended ? 'license_suspended' : 'license_resumed', userId: license.userId, actor, license });
    return { ...license, status, suspensionMessage, updatedAt: now };
  }

  /**
   * Moves a license's expiry `days` later (goodwill or grace, the vendor's console): from its
   * expiry, or from now when it has already passed.
   */
  async function extendBy(tx: Tx, key: string, days: number, actor: string): Promise<LicenseRow> {
    if (!Number.isInteger(days) || days < 1) throw new AppError('VALIDATION_FAILED', 'Extend by at least 1 day');
    const license = await lockForVendor(tx, key);
    // Its date means nothing any more: validation answers it as revoked whatever the expiry.
    refuseRevoked(license, 'extended');
    const now = clock.now();
    const from = Math.max(license.expiresAt.getTime(), now.getTime());
    const expiresAt = new Date(from + days * 86_400_000);
    changing(license.key);
    await repo.update(tx, license.id, { expiresAt, updatedAt: now });
    await audit.record(tx, {
      type: 'license_extended',
      userId: license.userId,
      actor,
      license,
      from: license.expiresAt,
      to: expiresAt,
    });
    return { ...license, expiresAt, updatedAt: now };
  }

  return {
    issue,
    resizeForSubscription,
    refuseShrinkBelowNodes,
    extendForSubscription,
    setGraceForSubscription,
    expireForSubscription,
    revokeAllForUser,
    revoke,
    setSuspended,
    extendBy,
  };
}
