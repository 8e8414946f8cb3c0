import type { SessionUser } from '@portal/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import type { ProfileField } from '../audit/audit-events';
import { usersRepository as repo, type UserRow } from './users.repository';

export const toSessionUser = (u: UserRow): SessionUser => ({
  email: u.email,
  fname: u.fname,
  lname: u.lname,
  onboarded: u.onboarded,
  picture: u.picture,
  company: u.company,
});

/** The whole profile of an account, as its data export and the vendor console show it. */
export const toAccountProfile = (u: UserRow) => ({
  email: u.email,
  fname: u.fname,
  lname: u.lname,
  company: u.company,
  picture: u.picture,
  onboarded: u.onboarded,
  linkedIdentity: u.identitySubject,
  createdAt: u.createdAt.toISOString(),
});

export type ProfileFields = { fname: string; lname: string; company?: string | undefined };

/** What an external identity provider says about the person signing in. */
export type IdentityProfile = { identitySubject: string; email: string; fname: string; lname: string; picture: string | null };

export function createUserService(deps: { db: Db; clock: Clock; audit: AuditService }) {
  async function completeOnboarding(userId: string, fields: ProfileFields) {
    return deps.db.transaction(async (tx) => {
      const user = await repo.update(tx, userId, {
        fname: fields.fname,
        lname: fields.lname,
        company: fields.company || null,
        onboarded: true,
      });
      if (!user) throw notFound('The account');
      await deps.audit.record(tx, { type: 'onboarded', userId, actor: user.email });
      return user;
    });
  }

  /**
   * PATCH semantics: an omitted company keeps the stored one, an empty one clears it. Saving the
   * same values again changes nothing and writes no activity entry.
   */
  async function updateProfile(userId: string, fields: ProfileFields) {
    return deps.db.transaction(async (tx) => {
      const current = await repo.lockById(tx, userId);
      if (!current) throw notFound('The account');
      const next = {
        fname: fields.fname,
        lname: fields.lname,
        company: fields.company === undefined ? current.company : fields.company || null,
      };
      const changed = (['fname', 'lname', 'company'] as const).filter((k: ProfileField) => next[k] !== current[k]);
      if (changed.length === 0) return current;
      const user = await repo.update(tx, userId, next);
      if (!user) throw notFound('The account');
      await deps.audit.record(tx, { type: 'profile_updated', userId, actor: user.email, changed });
      return user;
    });
  }

  /**
   * The account of `email` (in lower case), created (not onboarded) when missing: on the first
   * redeemed sign-in link, or when the vendor issues a license to the address.
   */
  async function findOrCreateByEmail(tx: Tx, email: string): Promise<UserRow & { created: boolean }> {
    const inserted = await repo.insertIfAbsent(tx, { email, createdAt: deps.clock.now() });
    if (inserted) return { ...inserted, created: true };
    const user = await repo.findByEmail(tx, email);
    if (!user) throw new AppError('INTERNAL', 'The account could not be loaded');
    return { ...user, created: false };
  }

  /** Links an external identity to an existing account, filling only what the person has not set. */
  function linkIdentity(tx: Tx, existing: UserRow, id: IdentityProfile) {
    return repo.update(tx, existing.id, {
      identitySubject: id.identitySubject,
      fname: existing.fname || id.fname,
      lname: existing.lname || id.lname,
      picture: existing.picture ?? id.picture,
    });
  }

  /** A new account from an external identity; onboarding is still to do. */
  function createFromIdentity(tx: Tx, id: IdentityProfile) {
    return repo.insert(tx, { ...id, onboarded: false, createdAt: deps.clock.now() });
  }

  return {
    completeOnboarding,
    updateProfile,
    findOrCreateByEmail,
    linkIdentity,
    createFromIdentity,
    findByEmail: (tx: Tx, email: string) => repo.findByEmail(tx, email),
    findByIdentity: (tx: Tx, identitySubject: string) => repo.findByIdentity(tx, identitySubject),
    /** The account's row (the data export). */
    findById: (userId: string) => repo.findById(deps.db, userId),
    /** Locks the account's row for its deletion: a second, concurrent deletion waits, then finds none. */
    lockForErasure: (tx: Tx, userId: string) => repo.lockById(tx, userId),
    /** Deletes the account's row; the database deletes what belongs to it (audit events, sessions, the payment customer). */
    eraseForUser: (tx: Tx, userId: string) => repo.delete(tx, userId),
  };
}
export type UserService = ReturnType<typeof createUserService>;
