import { TAX_ID_STATUS_LABELS, type ActionResult, type StaffAuditAction } from '@portal/contract';
import type { Db, Tx, WithinTx } from '../db/client';
import type { Clock } from '../lib/clock';
import { AppError, notFound } from '../lib/errors';
import { STAFF_ACTOR } from '../modules/audit/audit-events';
import type { AuditService } from '../modules/audit/audit.service';
import type { AuthService } from '../modules/auth/auth.service';
import type { SessionService } from '../modules/auth/sessions';
import { formatMoney } from '../modules/billing/billing-documents';
import type { BillingDetailsInput } from '../modules/billing/billing-details';
import type { BillingService } from '../modules/billing/billing.service';
import type { LicenseService } from '../modules/licenses/licenses.service';
import type { AccountService } from '../modules/users/account.service';
import type { UserService } from '../modules/users/users.service';
import { customerPageRepository as owners } from './customer-page.repository';
import type { StaffActor, StaffService } from './staff.service';

const DAY = 86_400_000;

export type StaffActionsDeps = {
  db: Db;
  clock: Clock;
  staff: Pick<StaffService, 'record'>;
  users: Pick<UserService, 'findById'>;
  licenses: Pick<LicenseService, 'setSuspended' | 'extendBy' | 'releaseNode' | 'issue'>;
  billing: Pick<
    BillingService,
    'cancel' | 'reactivate' | 'cancelNow' | 'refundInvoice' | 'creditInvoice' | 'retryPaymentNow' | 'updateBillingDetails'
  >;
  auth: Pick<AuthService, 'requestLink'>;
  /** The portal's per-address limit on sign-in links (the same counter as the portal's link requests). */
  limitLinkAddress: (email: string) => Promise<void>;
  sessions: Pick<SessionService, 'endAllForUser'>;
  account: Pick<AccountService, 'deleteByStaff'>;
  /** The customer's own activity log, for the actions no domain operation records there. */
  activity: Pick<AuditService, 'record'>;
};

/** Who acted and why: every action takes it and leaves it in the staff audit log. */
export type Why = { actor: StaffActor; reason: string };

const done = (message: string): ActionResult => ({ ok: true, message });

/**
 * What staff do to a customer's account, each through the owning domain's own operation (its rules,
 * its transaction, its activity entry, which reads "by the vendor's staff"), and each written to
 * the staff audit log with who and why in that same transaction: the action and its audit row
 * commit together, or neither does.
 */
export function createStaffActions(deps: StaffActionsDeps) {
  const { db, clock, staff } = deps;

  async function customer(userId: string) {
    const user = await deps.users.findById(userId);
    if (!user) throw notFound('The customer');
    return user;
  }
  async function licenseOwner(key: string): Promise<string> {
    const userId = await owners.licenseOwner(db, key);
    if (!userId) throw notFound('This license');
    return userId;
  }
  async function subscriptionOwner(subscriptionId: string) {
    const userId = await owners.subscriptionOwner(db, subscriptionId);
    if (!userId) throw notFound('The subscription');
    return customer(userId);
  }
  const audit = (
    tx: Tx,
    why: Why,
    action: StaffAuditAction,
    userId: string | null,
    subject: string,
    data?: Record<string, unknown>,
  ) => staff.record(tx, why.actor, { action, reason: why.reason, userId, subject, data });
  /** The audit row as the operation's own last write (`WithinTx`). */
  const audited =
    (why: Why, action: StaffAuditAction, userId: string | null, subject: string, data?: Record<string, unknown>): WithinTx =>
    (tx) =>
      audit(tx, why, action, userId, subject, data);

  return {
    /**
     * `customerMessage` is shown to the license's owner in the portal (the reason stays with staff);
     * the audit row keeps it too, so the log says what the customer was told.
     */
    async suspendLicense(why: Why, key: string, customerMessage?: string) {
      const message = customerMessage?.trim() || null;
      await db.transaction(async (tx) => {
        const license = await deps.licenses.setSuspended(tx, key, true, STAFF_ACTOR, message);
        await audit(tx, why, 'suspendLicense', license.userId, key, message ? { customerMessage: message } : undefined);
      });
      return done(message ? `License ${key} is suspended; the customer sees your message` : `License ${key} is suspended`);
    },

    async resumeLicense(why: Why, key: string) {
      await db.transaction(async (tx) => {
        const license = await deps.licenses.setSuspended(tx, key, false, STAFF_ACTOR);
        await audit(tx, why, 'resumeLicense', license.userId, key);
      });
      return done(`License ${key} is active again`);
    },

    async extendLicense(why: Why, key: string, days: number) {
      const license = await db.transaction(async (tx) => {
        const l = await deps.licenses.extendBy(tx, key, days, STAFF_ACTOR);
        await audit(tx, why, 'extendLicense', l.userId, key, { days, expiresAt: l.expiresAt.toISOString() });
        return l;
      });
      return done(`License ${key} now expires on ${license.expiresAt.toISOString().slice(0, 10)}`);
    },

    async releaseNode(why: Why, key: string, nodeId: string) {
      const userId = await licenseOwner(key);
      await deps.licenses.releaseNode(
        userId,
        key,
        nodeId,
        STAFF_ACTOR,
        audited(why, 'releaseNode', userId, nodeId, { licenseKey: key }),
      );
      return done('The node was released');
    },

    async issueLicense(why: Why, userId: string, maxNodes: number, days: number) {
      await customer(userId);
      const issued = await db.transaction(async (tx) => {
        const expiresAt = new Date(clock.now().getTime() + days * DAY);
        const l = await deps.licenses.issue(tx, { userId, subscriptionId: null, maxNodes, expiresAt, actor: STAFF_ACTOR });
        await audit(tx, why, 'issueLicense', userId, l.key, { maxNodes, days });
        return l;
      });
      return done(`Issued license ${issued.key}`);
    },

    async sendSignInLink(why: Why, userId: string) {
      const user = await customer(userId);
      await deps.limitLinkAddress(user.email);
      await deps.auth.requestLink(user.email, undefined, async (tx) => {
        await deps.activity.record(tx, { type: 'sign_in_link_sent', userId, actor: STAFF_ACTOR });
        await audit(tx, why, 'sendSignInLink', userId, user.id);
      });
      return done(`A sign-in link was sent to ${user.email}`);
    },

    async endSessions(why: Why, userId: string) {
      await customer(userId);
      await db.transaction(async (tx) => {
        await deps.sessions.endAllForUser(tx, userId);
        await deps.activity.record(tx, { type: 'sessions_ended', userId, actor: STAFF_ACTOR });
        await audit(tx, why, 'endSessions', userId, userId);
      });
      return done('Every session of the customer has ended');
    },

    async cancelAtPeriodEnd(why: Why, subscriptionId: string) {
      const user = await subscriptionOwner(subscriptionId);
      const sub = await deps.billing.cancel(
        user,
        subscriptionId,
        STAFF_ACTOR,
        audited(why, 'cancelAtPeriodEnd', user.id, subscriptionId),
      );
      return done(`The subscription ends on ${sub.currentPeriodEnd.slice(0, 10)}`);
    },

    async reactivateSubscription(why: Why, subscriptionId: string) {
      const user = await subscriptionOwner(subscriptionId);
      await deps.billing.reactivate(
        user,
        subscriptionId,
        STAFF_ACTOR,
        audited(why, 'reactivateSubscription', user.id, subscriptionId),
      );
      return done('The subscription renews again');
    },

    async cancelNow(why: Why, subscriptionId: string) {
      const user = await subscriptionOwner(subscriptionId);
      await deps.billing.cancelNow(user, subscriptionId, STAFF_ACTOR, audited(why, 'cancelNow', user.id, subscriptionId));
      return done('The subscription has ended');
    },

    /**
     * The open invoice of a failing payment charged now, once, as the engine's retry does it. A
     * declined retry is kept in the staff log too (it was tried on the customer's card) and answers
     * 402; the subscription stays past due and the schedule's next retry stands.
     */
    async retryPayment(why: Why, subscriptionId: string) {
      const user = await subscriptionOwner(subscriptionId);
      const r = await deps.billing.retryPaymentNow(subscriptionId, STAFF_ACTOR, (tx, retried) =>
        audit(tx, why, 'retryPayment', user.id, subscriptionId, {
          outcome: retried.outcome,
          ...(retried.outcome === 'paid'
            ? { invoices: retried.paid.map((i) => i.number), amount: retried.paid.reduce((n, i) => n + i.amountPaid, 0) }
            : {}),
        }),
      );
      if (r.outcome === 'declined') {
        const next = r.subscription.nextPaymentAttemptAt;
        throw new AppError(
          'CARD_DECLINED',
          `The card on file was declined again; the subscription stays past due${next ? ` and the next retry stays on ${next.toISOString().slice(0, 10)}` : ''}.`,
        );
      }
      const amount = r.paid.reduce((n, i) => n + i.amountPaid, 0);
      const currency = r.paid[0]?.currency ?? r.subscription.currency;
      return done(
        `Paid ${formatMoney(amount, currency)}: the subscription is active again until ${r.subscription.currentPeriodEnd.toISOString().slice(0, 10)}`,
      );
    },

    /** Money back to the card that paid the invoice (local engine or Stripe): all that is left unless `amount`. */
    async refundInvoice(why: Why, invoiceId: string, amount: number | undefined) {
      const r = await deps.billing.refundInvoice(invoiceId, amount, STAFF_ACTOR, (tx, g) =>
        audit(tx, why, 'refundInvoice', g.userId, invoiceId, { number: g.number, amount: g.amount, currency: g.currency }),
      );
      const left = r.left > 0 ? `; ${formatMoney(r.left, r.currency)} of it can still be refunded` : '';
      return done(`Refunded ${formatMoney(r.amount, r.currency)} of invoice ${r.number}${left}`);
    },

    /** Part of a paid invoice to the customer's balance, taken off their next payments: all that is left unless `amount`. */
    async creditInvoice(why: Why, invoiceId: string, amount: number | undefined) {
      const r = await deps.billing.creditInvoice(invoiceId, amount, STAFF_ACTOR, (tx, g) =>
        audit(tx, why, 'creditInvoice', g.userId, invoiceId, { number: g.number, amount: g.amount, currency: g.currency }),
      );
      return done(`Credited ${formatMoney(r.amount, r.currency)} of invoice ${r.number} to the customer's balance`);
    },

    /**
     * The customer's billing details replaced, through the customer's own operation (the same
     * checks, the same VIES check of a new EU VAT number); later invoices use them, issued ones
     * keep theirs.
     */
    async updateBillingDetails(why: Why, userId: string, details: BillingDetailsInput) {
      const user = await customer(userId);
      const saved = await deps.billing.updateBillingDetails(user, details, {
        actor: STAFF_ACTOR,
        then: (tx, d) =>
          audit(tx, why, 'updateCustomerBillingDetails', userId, userId, {
            country: d.country,
            legalName: d.legalName,
            taxId: d.taxId ? { type: d.taxId.type, value: d.taxId.value, status: d.taxId.status } : null,
          }),
      });
      const check = saved.taxId ? ` Tax ID: ${TAX_ID_STATUS_LABELS[saved.taxId.status]}.` : '';
      return done(`The billing details were saved; invoices from now on use them.${check}`);
    },

    /** The customer's own deletion (account.service); the audit row keeps the id, not the person. */
    async deleteCustomer(why: Why, userId: string) {
      await deps.account.deleteByStaff(userId, audited(why, 'deleteCustomer', null, userId));
      return done('The customer was deleted and their personal data erased');
    },
  };
}
export type StaffActions = ReturnType<typeof createStaffActions>;
