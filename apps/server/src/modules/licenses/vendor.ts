import type { LicenseStatus } from '@portal/contract';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { UserService } from '../users/users.service';
import type { createLicenseChanges } from './license-changes';
import { statusOf } from './license-rules';
import { licensesRepository as repo } from './licenses.repository';

/** A license for the vendor's command line, with its owner. */
export type VendorLicense = {
  key: string;
  status: LicenseStatus;
  maxNodes: number;
  activeNodes: number;
  expiresAt: Date;
  createdAt: Date;
  email: string | null;
  /** The payment provider's subscription id, when the license comes from a subscription. */
  subscriptionId: string | null;
};

/** The vendor's command line: listing every license, issuing one by hand. */
export function createVendorCalls(deps: {
  db: Db;
  clock: Clock;
  changes: ReturnType<typeof createLicenseChanges>;
  users: Pick<UserService, 'findOrCreateByEmail'>;
}) {
  const { db, clock, changes } = deps;

  /** Every license (optionally of one e-mail address). */
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
      subscriptionId: r.providerId,
    }));
  }

  /** The vendor issuing a license by hand: the account is created (not onboarded) when missing. */
  async function issueForEmail(input: { email: string; maxNodes: number; expiresAt: Date; actor: string }) {
    return db.transaction(async (tx) => {
      const user = await deps.users.findOrCreateByEmail(tx, input.email.toLowerCase());
      const issued = await changes.issue(tx, {
        userId: user.id,
        subscriptionId: null,
        maxNodes: input.maxNodes,
        expiresAt: input.expiresAt,
        actor: input.actor,
      });
      return { ...issued, userCreated: user.created };
    });
  }

  return { listAll, issueForEmail };
}
