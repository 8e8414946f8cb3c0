import type { ConsoleCustomer, ConsoleDunning, Invoice } from '@portal/contract';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { notFound } from '../lib/errors';
import { BY_STAFF } from '../modules/audit/audit-events';
import type { AuditService } from '../modules/audit/audit.service';
import type { SessionService } from '../modules/auth/sessions';
import type { BillingService } from '../modules/billing/billing.service';
import { amountOwed } from '../modules/billing/payment-failing';
import { paymentTrouble } from '../modules/billing/transition';
import { toLicense } from '../modules/licenses/licenses.service';
import { toAccountProfile, type UserService } from '../modules/users/users.service';
import { customerPageRepository as repo } from './customer-page.repository';
import type { StaffService } from './staff.service';

const RECENT = 50;
/**
 * The newest nodes listed (by activation, across the customer's licenses), as many as the page's
 * other recent lists: every node of most customers; of a reseller's thousands the newest, with each
 * license's count (ADR 118). The read costs licenses × this many index entries.
 */
const NODES_SHOWN = RECENT;

export type CustomerPageDeps = {
  db: Db;
  clock: Clock;
  /** Sessions idle longer than this many days have ended (the portal's SESSION_IDLE_DAYS). */
  sessionIdleDays: number;
  /** PAYMENT_GRACE_DAYS: how long a failing payment keeps the license valid. */
  graceDays: number;
  users: Pick<UserService, 'findById'>;
  billing: Pick<BillingService, 'listSubscriptions' | 'listInvoices' | 'listPaymentMethods' | 'getBillingDetails'>;
  audit: Pick<AuditService, 'list'>;
  sessions: Pick<SessionService, 'listForUser'>;
  staff: Pick<StaffService, 'listAudit'>;
};

/**
 * The customer page: the profile, billing's subscriptions (with each one's invoices, from its
 * provider) and cards, licenses with node usage, the newest nodes, the customer's own activity log, sign-ins
 * and what staff did to the account. Each part comes from the domain that owns it.
 */
export function createCustomerPage(deps: CustomerPageDeps) {
  const { db, clock } = deps;

  async function getCustomer(userId: string): Promise<ConsoleCustomer> {
    const user = await deps.users.findById(userId);
    if (!user) throw notFound('The customer');
    const now = clock.now();
    const [subs, facts, licenses, nodes, cards, activity, sessions, staffActions, billingDetails] = await Promise.all([
      deps.billing.listSubscriptions(userId),
      repo.subscriptionFacts(db, userId),
      repo.licenses(db, userId),
      repo.nodes(db, userId, NODES_SHOWN),
      deps.billing.listPaymentMethods(userId),
      deps.audit.list(userId, 1, RECENT),
      deps.sessions.listForUser(userId),
      deps.staff.listAudit({ userId, page: 1, size: RECENT }),
      deps.billing.getBillingDetails(userId),
    ]);
    const factOf = new Map(facts.map((f) => [f.providerId, f]));
    const invoices = await Promise.all(subs.map((s) => deps.billing.listInvoices(userId, s.stripeId)));
    const idleSince = now.getTime() - deps.sessionIdleDays * 86_400_000;

    return {
      profile: { id: user.id, ...toAccountProfile(user) },
      subscriptions: subs.map((s, i) => {
        const { stripeId, ...rest } = s;
        const fact = factOf.get(stripeId);
        const own = invoices[i] ?? [];
        return {
          ...rest,
          subscriptionId: stripeId,
          provider: fact?.provider ?? 'local',
          createdAt: (fact?.createdAt ?? new Date(s.currentPeriodStart)).toISOString(),
          invoices: own,
          dunning: fact ? dunningOf(fact, own, deps.graceDays) : null,
        };
      }),
      // The license as the customer's own API shows it (with the suspension message the customer
      // reads, so support sees the same words), under the console's name for its subscription.
      licenses: licenses.map(({ license, subscriptionId }) => {
        const { stripeId: _owners, ...view } = toLicense(license, subscriptionId, now);
        return { ...view, subscriptionId };
      }),
      nodes: nodes.map(({ node, key }) => ({
        id: node.id,
        licenseKey: key,
        fingerprint: node.fingerprint,
        hostname: node.hostname,
        activatedAt: node.activatedAt.toISOString(),
        lastSeenAt: node.lastSeenAt.toISOString(),
      })),
      cards: cards.map((c) => ({
        brand: c.brand,
        last4: c.last4,
        expMonth: c.expMonth,
        expYear: c.expYear,
        isDefault: c.isDefault,
      })),
      // The console shows staff's part as a badge; the customer's own wording, "(by the vendor's
      // staff)", is not said a second time beside it.
      activity: activity.items.map((a) =>
        a.summary.endsWith(BY_STAFF)
          ? { ...a, summary: a.summary.slice(0, -BY_STAFF.length), byStaff: true }
          : { ...a, byStaff: false },
      ),
      signIns: sessions.slice(0, RECENT).map((s) => ({
        method: s.method,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        active: s.expiresAt.getTime() > now.getTime() && s.lastSeenAt.getTime() > idleSince,
      })),
      staffActions: staffActions.items,
      billingDetails,
    };
  }

  return { getCustomer };
}
export type CustomerPage = ReturnType<typeof createCustomerPage>;

/** A failing payment as staff see it (paymentTrouble), with what its open invoices ask for. */
export function dunningOf(
  sub: Parameters<typeof paymentTrouble>[0],
  invoices: readonly Pick<Invoice, 'status' | 'amountDue' | 'amountPaid' | 'currency'>[],
  graceDays: number,
): ConsoleDunning | null {
  const trouble = paymentTrouble(sub, graceDays);
  if (!trouble) return null;
  const open = invoices.filter((i) => i.status === 'open');
  return {
    failingSince: trouble.failingSince.toISOString(),
    accessUntil: trouble.accessUntil.toISOString(),
    nextAttemptAt: trouble.nextAttemptAt?.toISOString() ?? null,
    amountDue: amountOwed(invoices),
    currency: open[0]?.currency ?? sub.currency,
  };
}
