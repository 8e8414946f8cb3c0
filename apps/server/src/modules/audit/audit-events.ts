import { cardBrandLabel, type ActivityAction, type WebhookObject } from '@portal/contract';
import { formatDate, formatMoney } from '../billing/billing-documents';
import { shortKey } from '../licenses/license-key';
import { day, nodeLabel, plural } from '../licenses/license-rules';

/**
 * Every kind of entry the activity log records: `type` is the stored `action`, the rest the facts
 * of that kind. Callers state what happened; the wording lives in toAuditEntry() below, so one
 * kind of event reads the same wherever it is recorded, and a new kind cannot compile without it.
 */

/** Who the entry belongs to (null once the account is gone) and who did it. */
type Who = { userId: string | null; actor: string };

/**
 * The actor of what the vendor's staff do in the console: the customer's log says "by the vendor's
 * staff" and never names the staff member (the staff audit log keeps who, console/staff.service.ts).
 */
export const STAFF_ACTOR = 'vendor-staff';
export const BY_STAFF = " (by the vendor's staff)";

/** A subscription as entries name it; a subscription row fits. */
export type SubscriptionRef = { providerId: string; quantity: number; plan: string; interval: string };
/** The invoice a change produced; an invoice row fits. */
export type InvoiceRef = { number: string; amountPaid?: number; amountDue?: number };
type LicenseRef = { id: string; key: string };
type NodeRef = { id: string; fingerprint: string; hostname: string | null };
type Card = { brand: string; last4: string };
type TokenRef = { id: string; name: string };
/**
 * An invoice only the payment provider holds (Stripe's), as its webhook events carry it: the
 * portal has no row to read it from when it announces the change (webhook-events.ts).
 */
export type HeldInvoiceObject = WebhookObject<'invoice'>;
export type ProfileField = 'fname' | 'lname' | 'company';

type Facts =
  // ---------- account ----------
  | { type: 'signed_in'; method: 'link' | 'google' }
  | { type: 'identity_linked' }
  | { type: 'onboarded' }
  | { type: 'profile_updated'; userId: string; changed: ProfileField[] }
  | { type: 'account_deleted'; accountId: string }
  /** The billing details invoices are made out to (later invoices only); `taxId` the VAT check's outcome. */
  | { type: 'billing_details_updated'; userId: string; country: string; taxId: { value: string; status: string } | null }
  /** The vendor's staff sent the account a sign-in link / ended all of its sessions (console). */
  | { type: 'sign_in_link_sent' | 'sessions_ended' }
  // ---------- licenses and nodes ----------
  | { type: 'node_activated' | 'node_released'; license: LicenseRef; node: NodeRef }
  | { type: 'license_issued'; license: LicenseRef; maxNodes: number; expiresAt: Date; subscriptionId: string | null }
  | { type: 'license_resized'; license: LicenseRef; from: number; to: number }
  | { type: 'license_extended' | 'license_expired'; license: LicenseRef; from: Date; to: Date }
  | { type: 'license_revoked' | 'license_suspended' | 'license_resumed'; license: LicenseRef }
  // ---------- cards ----------
  | { type: 'card_added'; cardId: string; /** Unknown when the provider has not told us yet. */ card?: Card | undefined }
  | {
      type: 'card_removed';
      cardId: string;
      card: Card;
      /** The card now paying the subscriptions the removed one paid for, if it paid for any. */
      subscriptionsMovedTo?: Pick<Card, 'last4'> | undefined;
    }
  // ---------- subscriptions ----------
  | { type: 'subscription_created'; subscription: SubscriptionRef; invoice?: InvoiceRef | undefined; status?: string }
  | {
      type: 'subscription_quantity_changed';
      subscription: SubscriptionRef;
      from: number;
      to: number;
      invoice?: InvoiceRef | undefined;
    }
  | {
      type: 'subscription_interval_changed';
      subscription: SubscriptionRef;
      from: string;
      to: string;
      invoice?: InvoiceRef | undefined;
    }
  | {
      type: 'subscription_renewed';
      subscription: SubscriptionRef;
      until: Date;
      invoice?: InvoiceRef | undefined;
      /** Renewed because a new card paid the open invoice of a failed renewal (past_due). */
      paidOpenInvoice?: boolean;
    }
  | { type: 'subscription_payment_failed'; subscription: SubscriptionRef; invoice: InvoiceRef | undefined }
  | {
      type: 'subscription_cancelled';
      subscription: SubscriptionRef;
      endsOn: Date;
      /** The customer in the portal, or the payment provider reporting a cancellation made there. */
      by: 'customer' | 'provider';
    }
  | {
      type: 'subscription_reactivated';
      subscription: SubscriptionRef;
      /** Known when re-activated in the portal; the provider's report says only that it was. */
      renewsOn?: Date | undefined;
    }
  | {
      type: 'subscription_ended';
      subscription: SubscriptionRef;
      /**
       * 'unpaid': the renewal invoice was not paid; 'cancelled': cancelled at the period's end, which
       * has come; 'account_deleted'; none: the provider reported the end.
       */
      reason?: 'unpaid' | 'cancelled' | 'account_deleted' | undefined;
    }
  // ---------- API tokens (docs/decisions/092-api-token-use-in-the-activity-log.md) ----------
  | { type: 'api_token_created'; token: TokenRef & { scopes: readonly string[]; expiresAt: Date | null } }
  | { type: 'api_token_revoked'; token: TokenRef }
  /** The first use of a token in an hour, with the operation it was used for. */
  | { type: 'api_token_used'; token: TokenRef; operation: string }
  // ---------- invoices ----------
  /**
   * The payment provider reports an invoice of its own paid (Stripe's invoice.paid); the built-in
   * engine's invoices are named by the change that paid them (subscription_created, …_renewed).
   */
  | { type: 'invoice_paid'; invoice: HeldInvoiceObject }
  | {
      type: 'invoice_refunded' | 'invoice_credited';
      /** `held`: the invoice after this, where only the provider holds it (Stripe's). */
      invoice: { id: string; number: string; held?: HeldInvoiceObject | undefined };
      amount: number;
      currency: string;
      /** Nothing of the invoice is left to give back after this one. */
      inFull: boolean;
    };

export type AuditEvent = Who & Facts;
export type AuditEventType = AuditEvent['type'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
/** The stored enum's list (contract ACTIVITY_ACTIONS) names every type above and no other: else this does not compile. */
export const ACTIVITY_ACTIONS_MATCH: Same<AuditEventType, ActivityAction> = true;

/** A row of the activity log, as stored. */
export type AuditEntry = Who & {
  action: AuditEventType;
  summary: string;
  subjectType?: string;
  subjectId?: string;
  data?: Record<string, unknown>;
};

/** '3 × Standard (monthly)': how entries (and billing's e-mails) name a subscription. */
export const describeSubscription = (s: Pick<SubscriptionRef, 'quantity' | 'plan' | 'interval'>) =>
  `${s.quantity} × ${s.plan} (${s.interval}ly)`;

const PROFILE_LABELS: Record<ProfileField, string> = { fname: 'first name', lname: 'last name', company: 'company' };

/** 'Added Visa card ending in 4242' (the brand as people write it; 'Added a card ending in …' when unknown). */
function addedCard(card: Card | undefined): string {
  if (!card) return 'Added a card';
  const label = cardBrandLabel(card.brand);
  return `Added ${label === 'Card' ? 'a' : label} card ending in ${card.last4}`;
}

const onLicense = (l: LicenseRef) => ({ subjectType: 'license', subjectId: l.id });
const onNode = (n: NodeRef, l: LicenseRef) => ({
  subjectType: 'node',
  subjectId: n.id,
  data: { licenseId: l.id, fingerprint: n.fingerprint, hostname: n.hostname },
});
const onCard = (cardId: string) => ({ subjectType: 'payment_method', subjectId: cardId });
const onToken = (t: TokenRef) => ({ subjectType: 'api_token', subjectId: t.id });
const onSubscription = (s: SubscriptionRef) => ({ subjectType: 'subscription', subjectId: s.providerId });

/** The one place an event becomes its stored row: action, summary, subject and data. */
export function toAuditEntry(event: AuditEvent): AuditEntry {
  const entry = entryOf(event);
  return event.actor === STAFF_ACTOR ? { ...entry, summary: entry.summary + BY_STAFF } : entry;
}

function entryOf(event: AuditEvent): AuditEntry {
  const who = { userId: event.userId, actor: event.actor, action: event.type };
  switch (event.type) {
    case 'signed_in':
      return { ...who, summary: event.method === 'google' ? 'Signed in with Google' : 'Signed in with an e-mailed link' };
    case 'identity_linked':
      return { ...who, summary: 'Linked sign-in with Google' };
    case 'sign_in_link_sent':
      return { ...who, summary: "Sent a sign-in link to the account's e-mail address" };
    case 'sessions_ended':
      return { ...who, summary: 'Signed out everywhere: every session of the account ended' };
    case 'onboarded':
      return { ...who, summary: 'Completed onboarding' };
    case 'profile_updated':
      return {
        ...who,
        subjectType: 'user',
        subjectId: event.userId,
        summary: `Updated the profile (${event.changed.map((k) => PROFILE_LABELS[k]).join(', ')})`,
      };
    case 'billing_details_updated':
      return {
        ...who,
        subjectType: 'user',
        subjectId: event.userId,
        summary: `Updated the billing details (country ${event.country}${event.taxId ? `, tax ID ${event.taxId.value}: ${event.taxId.status}` : ', no tax ID'})`,
      };
    case 'account_deleted':
      return {
        ...who,
        subjectType: 'user',
        subjectId: event.accountId,
        summary: 'Deleted the account and erased its personal data',
      };

    case 'node_activated':
      return {
        ...who,
        ...onNode(event.node, event.license),
        summary: `Activated node ${nodeLabel(event.node)} on license ${shortKey(event.license.key)}`,
      };
    case 'node_released':
      return {
        ...who,
        ...onNode(event.node, event.license),
        summary: `Released node ${nodeLabel(event.node)} from license ${shortKey(event.license.key)}`,
      };
    case 'license_issued':
      return {
        ...who,
        ...onLicense(event.license),
        summary: `Issued license ${shortKey(event.license.key)} for ${plural(event.maxNodes, 'node')}, valid until ${day(event.expiresAt)}`,
        data: { maxNodes: event.maxNodes, expiresAt: event.expiresAt.toISOString(), subscriptionId: event.subscriptionId },
      };
    case 'license_resized':
      return {
        ...who,
        ...onLicense(event.license),
        summary: `Changed license ${shortKey(event.license.key)} from ${plural(event.from, 'node')} to ${plural(event.to, 'node')}`,
        data: { from: event.from, to: event.to },
      };
    case 'license_extended':
    case 'license_expired':
      return {
        ...who,
        ...onLicense(event.license),
        summary:
          event.type === 'license_extended'
            ? `Extended license ${shortKey(event.license.key)} until ${day(event.to)}`
            : `License ${shortKey(event.license.key)} ends on ${day(event.to)}`,
        data: { from: event.from.toISOString(), to: event.to.toISOString() },
      };
    case 'license_revoked':
      return { ...who, ...onLicense(event.license), summary: `Revoked license ${shortKey(event.license.key)}` };
    case 'license_suspended':
      return { ...who, ...onLicense(event.license), summary: `Suspended license ${shortKey(event.license.key)}` };
    case 'license_resumed':
      return { ...who, ...onLicense(event.license), summary: `Resumed license ${shortKey(event.license.key)}` };

    case 'card_added':
      return { ...who, ...onCard(event.cardId), summary: addedCard(event.card) };
    case 'card_removed': {
      const moved = event.subscriptionsMovedTo
        ? `; subscriptions now use the card ending in ${event.subscriptionsMovedTo.last4}`
        : '';
      return {
        ...who,
        ...onCard(event.cardId),
        summary: `Removed ${event.card.brand} card ending in ${event.card.last4}${moved}`,
      };
    }

    case 'subscription_created':
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary: `Subscribed to ${describeSubscription(event.subscription)}`,
        ...facts({ invoice: event.invoice?.number, amountPaid: event.invoice?.amountPaid, status: event.status }),
      };
    case 'subscription_quantity_changed':
    case 'subscription_interval_changed':
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary:
          event.type === 'subscription_quantity_changed'
            ? `Changed the quantity from ${event.from} to ${event.to}`
            : `Changed billing from ${event.from}ly to ${event.to}ly`,
        ...facts({ from: event.from, to: event.to, invoice: event.invoice?.number, amountDue: event.invoice?.amountDue }),
      };
    case 'subscription_renewed': {
      const what = describeSubscription(event.subscription);
      const until = formatDate(event.until);
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary: event.paidOpenInvoice
          ? `Paid the open invoice of ${what}; renewed until ${until}`
          : `Renewed ${what} until ${until}`,
        ...facts({ invoice: event.invoice?.number, amountPaid: event.invoice?.amountPaid, periodEnd: event.until.toISOString() }),
      };
    }
    case 'subscription_payment_failed':
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary: `The renewal payment of ${describeSubscription(event.subscription)} failed (invoice ${event.invoice?.number})`,
        ...facts({ invoice: event.invoice?.number }),
      };
    case 'subscription_cancelled': {
      const ends = formatDate(event.endsOn);
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary:
          event.by === 'customer'
            ? `Cancelled ${describeSubscription(event.subscription)}; access continues until ${ends}`
            : `Cancelled ${describeSubscription(event.subscription)}; it ends on ${ends}`,
      };
    }
    case 'subscription_reactivated':
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary: `Re-activated ${describeSubscription(event.subscription)}${event.renewsOn ? `; it renews on ${formatDate(event.renewsOn)}` : ''}`,
      };
    case 'subscription_ended':
      return {
        ...who,
        ...onSubscription(event.subscription),
        summary: `Ended ${describeSubscription(event.subscription)}${ENDED_BECAUSE[event.reason ?? 'reported']}`,
      };

    case 'api_token_created':
      return {
        ...who,
        ...onToken(event.token),
        summary: `Created API token “${event.token.name}” (${event.token.scopes.join(', ')}; ${event.token.expiresAt ? `expires on ${day(event.token.expiresAt)}` : 'never expires'})`,
      };
    case 'api_token_revoked':
      return { ...who, ...onToken(event.token), summary: `Revoked API token “${event.token.name}”` };
    case 'api_token_used':
      return {
        ...who,
        ...onToken(event.token),
        summary: `Used API token “${event.token.name}” (${event.operation}; later uses within the hour are not listed)`,
        data: { operation: event.operation },
      };

    case 'invoice_paid': {
      const inv = event.invoice;
      return {
        ...who,
        subjectType: 'invoice',
        subjectId: inv.id,
        summary: `Paid invoice ${inv.number} (${formatMoney(inv.amountPaid, inv.currency)})`,
        data: { invoice: inv.number, amountPaid: inv.amountPaid, currency: inv.currency },
      };
    }
    case 'invoice_refunded':
    case 'invoice_credited': {
      const money = formatMoney(event.amount, event.currency);
      const n = event.invoice.number;
      const summary =
        event.type === 'invoice_credited'
          ? `Credited ${money} of invoice ${n} to the account; it is taken off the next payments`
          : `Refunded ${money} of invoice ${n}${event.inFull ? ' (all that was left of it)' : ''}`;
      return {
        ...who,
        subjectType: 'invoice',
        subjectId: event.invoice.id,
        summary,
        data: { invoice: event.invoice.number, amount: event.amount, currency: event.currency },
      };
    }
  }
}

const ENDED_BECAUSE = {
  unpaid: ': the renewal invoice was not paid',
  cancelled: ' at the end of the paid period',
  account_deleted: ' because the account was deleted',
  reported: '',
} as const;

/** Data only with something in it: an entry without these facts stores none, as before. */
function facts(data: Record<string, unknown>): { data?: Record<string, unknown> } {
  return Object.values(data).some((v) => v !== undefined) ? { data } : {};
}
