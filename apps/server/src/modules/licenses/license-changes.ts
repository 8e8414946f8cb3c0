import type { Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import { generateLicenseKey, shortKey } from './license-key';
import { day, plural } from './license-rules';
import { licensesRepository as repo, type LicenseRow } from './licenses.repository';

export type IssueInput = {
  userId: string | null;
  subscriptionId: string | null;
  maxNodes: number;
  expiresAt: Date;
  actor: string;
};

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
      changing(license.key);
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
      changing(license.key);
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
      changing(license.key);
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
    changing(license.key);
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

  return { issue, resizeForSubscription, extendForSubscription, expireForSubscription, revokeAllForUser, revoke };
}
