import { RECENT_SIGN_IN_MINUTES, type AccountExport, type AuditEvent, type Page } from '@portal/contract';
import { AppError, notFound } from '../../lib/errors';
import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';
import type { BillingService } from '../billing/billing.service';
import type { LicenseService } from '../licenses/licenses.service';
import type { AuthService } from '../auth/auth.service';
import type { SessionService } from '../auth/sessions';
import type { OutboxService } from '../outbox/outbox.service';
import { toAccountProfile, type UserService } from './users.service';

/** Written as the actor of what deletion does to licenses, so no address outlives the account. */
const DELETION_ACTOR = 'customer (account deletion)';
const EXPORT_PAGE = 100;

export type AccountServiceDeps = ServiceDeps & {
  audit: AuditService;
  outbox: OutboxService;
  users: Pick<UserService, 'findById' | 'lockForErasure' | 'eraseForUser'>;
  sessions: Pick<SessionService, 'listForUser' | 'endAllForUser'>;
  auth: Pick<AuthService, 'eraseForUser'>;
  billing: Pick<BillingService, 'cancelAllNowForUser' | 'anonymiseForUser' | 'exportForUser'>;
  licenses: Pick<LicenseService, 'revokeAllForUser' | 'exportForUser'>;
};

/** The customer's own account: activity log, data export and deletion. */
export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, audit } = deps;

  function listActivity(userId: string, page: number, size: number): Promise<Page<AuditEvent>> {
    return audit.list(userId, page, size);
  }

  /** Everything the portal holds about the user, for a download (GDPR art. 15 and 20). */
  async function exportData(userId: string, currentSessionHash: string): Promise<AccountExport> {
    const user = await deps.users.findById(userId);
    if (!user) throw notFound('The account');
    const [sessionRows, licenses, billing, activity] = await Promise.all([
      deps.sessions.listForUser(userId),
      deps.licenses.exportForUser(userId),
      deps.billing.exportForUser(userId),
      allActivity(userId),
    ]);
    return {
      format: 'customer-portal-account-export',
      version: 1,
      exportedAt: clock.now().toISOString(),
      profile: toAccountProfile(user),
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
   * Deletes the account in one transaction, each domain erasing or anonymising its own rows:
   * subscriptions cancelled now, licenses revoked, sign-in links of the address deleted (a link
   * issued before cannot bring the account back), invoices kept for the books but anonymised, every
   * session ended, the user row (and with it audit events and the payment customer) deleted.
   * Needs a sign-in within RECENT_SIGN_IN_MINUTES.
   */
  async function deleteAccount(auth: { userId: string; sessionCreatedAt: Date }): Promise<void> {
    const now = clock.now();
    if (now.getTime() - auth.sessionCreatedAt.getTime() > RECENT_SIGN_IN_MINUTES * 60_000) {
      throw new AppError('RECENT_SIGN_IN_REQUIRED', 'For your security, sign in again to confirm the deletion');
    }
    // Serialises a double-submitted deletion: the second finds no user and answers 401.
    await erase(auth.userId, () => new AppError('UNAUTHENTICATED', 'Please sign in to continue'));
  }

  /**
   * The same deletion, asked for by the customer through the vendor's staff (the console): no
   * recent sign-in of the customer's to check; an unknown or already deleted account is a 404.
   */
  async function deleteByStaff(userId: string): Promise<void> {
    await erase(userId, () => notFound('The customer'));
  }

  async function erase(userId: string, missing: () => AppError): Promise<void> {
    const now = clock.now();
    await db.transaction(async (tx) => {
      const user = await deps.users.lockForErasure(tx, userId);
      if (!user) throw missing();
      await deps.billing.cancelAllNowForUser(tx, user.id);
      await deps.licenses.revokeAllForUser(tx, user.id, DELETION_ACTOR);
      await deps.auth.eraseForUser(tx, user);
      await deps.billing.anonymiseForUser(tx, user.id);
      await deps.sessions.endAllForUser(tx, user.id);
      await deps.users.eraseForUser(tx, user.id);
      // Kept without a user (the row is gone): the vendor can see that and when an account was deleted.
      await audit.record(tx, { type: 'account_deleted', userId: null, actor: DELETION_ACTOR, accountId: user.id });
      // The confirmation is queued with the deletion: the address leaves the database with the row,
      // and lives on only in this job until it is sent (the outbox blanks a sent job's payload).
      await deps.outbox.enqueue(tx, 'email', {
        to: user.email,
        template: 'account-deleted',
        data: { deletedAt: now.toISOString() },
      });
    });
    void deps.outbox.kick();
    deps.log.info({ userId }, 'account deleted');
  }

  return { listActivity, exportData, deleteAccount, deleteByStaff };
}
export type AccountService = ReturnType<typeof createAccountService>;
