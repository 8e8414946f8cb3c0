import { desc, eq, sql } from 'drizzle-orm';
import { RECENT_SIGN_IN_MINUTES, type AccountExport, type AuditEvent, type Page } from '@portal/contract';
import type { Tx } from '../../db/client';
import { invoices, loginLinks, sessions as sessionsTable, users } from '../../db/schema/index';
import { AppError, notFound } from '../../lib/errors';
import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';
import type { SessionService } from '../auth/sessions';
import type { OutboxService } from '../outbox/outbox.service';

/** What account deletion and export need from the billing service (its names and signatures). */
export interface BillingPort {
  cancelAllNowForUser(tx: Tx, userId: string): Promise<unknown>;
  exportForUser(userId: string): Promise<unknown>;
}
/** What account deletion and export need from the license service. */
export interface LicensePort {
  revokeAllForUser(tx: Tx, userId: string, actor: string): Promise<unknown>;
  exportForUser(userId: string): Promise<unknown>;
}

/** Invoices are kept for the vendor's books; this replaces the customer's name on them. */
export const DELETED_CUSTOMER = 'Deleted customer';
/** Written as the actor of what deletion does to licenses, so no address outlives the account. */
const DELETION_ACTOR = 'customer (account deletion)';
const EXPORT_PAGE = 100;

export type AccountServiceDeps = ServiceDeps & {
  audit: AuditService;
  sessions: SessionService;
  outbox: OutboxService;
  billing: Partial<BillingPort> & object;
  licenses: Partial<LicensePort> & object;
};

/** The customer's own account: activity log, data export and deletion. */
export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, audit } = deps;

  function listActivity(userId: string, page: number, size: number): Promise<Page<AuditEvent>> {
    return audit.list(userId, page, size);
  }

  /** Everything the portal holds about the user, for a download (GDPR art. 15 and 20). */
  async function exportData(userId: string, currentSessionHash: string): Promise<AccountExport> {
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw notFound('The account');
    const [sessionRows, licenses, billing, activity] = await Promise.all([
      db.select().from(sessionsTable).where(eq(sessionsTable.userId, userId)).orderBy(desc(sessionsTable.createdAt)),
      port(deps.licenses, 'exportForUser', 'licenses')(userId),
      port(deps.billing, 'exportForUser', 'billing')(userId),
      allActivity(userId),
    ]);
    return {
      format: 'customer-portal-account-export',
      version: 1,
      exportedAt: clock.now().toISOString(),
      profile: {
        email: user.email,
        fname: user.fname,
        lname: user.lname,
        company: user.company,
        picture: user.picture,
        onboarded: user.onboarded,
        linkedIdentity: user.identitySubject,
        createdAt: user.createdAt.toISOString(),
      },
      // The id hash is a credential's digest, not data about the person: left out.
      sessions: sessionRows.map((s) => ({
        method: s.method,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        current: s.idHash === currentSessionHash,
      })),
      licenses,
      billing,
      activity,
    };
  }

  async function allActivity(userId: string): Promise<AuditEvent[]> {
    const items: AuditEvent[] = [];
    for (let page = 1; ; page++) {
      const p = await audit.list(userId, page, EXPORT_PAGE);
      items.push(...p.items);
      if (p.items.length < EXPORT_PAGE || items.length >= p.total) return items;
    }
  }

  /**
   * Deletes the account in one transaction: subscriptions cancelled now, licenses revoked, sign-in
   * links of the address deleted (a link issued before cannot bring the account back), invoices kept
   * for the books but anonymised, every session ended, the user row (and with it audit events,
   * sessions and the payment customer) deleted. Needs a sign-in within RECENT_SIGN_IN_MINUTES.
   */
  async function deleteAccount(auth: { userId: string; sessionCreatedAt: Date }): Promise<void> {
    const now = clock.now();
    if (now.getTime() - auth.sessionCreatedAt.getTime() > RECENT_SIGN_IN_MINUTES * 60_000) {
      throw new AppError('RECENT_SIGN_IN_REQUIRED', 'For your security, sign in again to confirm the deletion');
    }
    const cancelAllNow = port(deps.billing, 'cancelAllNowForUser', 'billing');
    const revokeAll = port(deps.licenses, 'revokeAllForUser', 'licenses');
    await db.transaction(async (tx) => {
      // Serialises a double-submitted deletion: the second finds no user and answers 401.
      const [user] = await tx.select().from(users).where(eq(users.id, auth.userId)).for('update').limit(1);
      if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
      await cancelAllNow(tx, user.id);
      await revokeAll(tx, user.id, DELETION_ACTOR);
      // Deleting, not only voiding, the links: they hold the address, which is personal data.
      await tx.delete(loginLinks).where(sql`lower(${loginLinks.email}) = ${user.email.toLowerCase()}`);
      await tx
        .update(invoices)
        .set({ userId: null, customerName: DELETED_CUSTOMER, customerEmail: null })
        .where(eq(invoices.userId, user.id));
      await deps.sessions.destroyAllForUser(tx, user.id);
      await tx.delete(users).where(eq(users.id, user.id));
      // Kept without a user (the row is gone): the vendor can see that and when an account was deleted.
      await audit.record(tx, {
        userId: null,
        actor: DELETION_ACTOR,
        action: 'account_deleted',
        subjectType: 'user',
        subjectId: user.id,
        summary: 'Deleted the account and erased its personal data',
      });
      // The confirmation is queued with the deletion: the address leaves the database with the row,
      // and lives on only in this job until it is sent (the outbox blanks a sent job's payload).
      await deps.outbox.enqueue(tx, 'email', {
        to: user.email,
        template: 'account-deleted',
        data: { deletedAt: now.toISOString() },
      });
    });
    void deps.outbox.kick();
    deps.log.info({ userId: auth.userId }, 'account deleted');
  }

  return { listActivity, exportData, deleteAccount };
}
export type AccountService = ReturnType<typeof createAccountService>;

/** A method of another domain's service, bound to it; a clear error when that service lacks it. */
function port<S extends object, K extends keyof S>(service: S, key: K, domain: string): NonNullable<S[K]> {
  const fn = service[key];
  if (typeof fn !== 'function') throw new Error(`The ${domain} service has no ${String(key)}(); it is not wired in yet`);
  return (fn as (...args: unknown[]) => unknown).bind(service) as NonNullable<S[K]>;
}
