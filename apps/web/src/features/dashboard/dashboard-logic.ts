import {
  cardBrandLabel,
  DAY_MS,
  hasAccess,
  intervalLabel,
  plural,
  type LicenseSummary,
  type PaymentMethod,
  type Subscription,
  formatDate,
  formatMoney,
  formatRelative,
} from '@portal/contract';
import { suspendedAttention, type Attention, type AttentionLevel } from '../../lib/attention';
import { PAGES } from '../../lib/pages';

/** A renewal this close is announced on the dashboard. */
export const RENEWAL_SOON_DAYS = 7;
/** A cancelled subscription this close to its end is announced on the dashboard. */
export const ENDING_SOON_DAYS = 14;

export type WarningLevel = AttentionLevel;

export type DashboardWarning = Attention;

const endOf = (s: Pick<Subscription, 'currentPeriodEnd'>) => new Date(s.currentPeriodEnd);

/** Paid for and not over: active or past due, within its period (a cancelled one until its end). */
export function isCurrent(s: Subscription, now: Date): boolean {
  return hasAccess(s) && endOf(s).getTime() > now.getTime();
}

/** Current and not cancelled: it renews (and charges) at the end of the period. */
export function isRenewing(s: Subscription, now: Date): boolean {
  return isCurrent(s, now) && !s.cancelAtPeriodEnd;
}

/** What a renewal charges, in minor units: the unit price times the nodes. */
export function renewalAmount(s: Pick<Subscription, 'unitAmount' | 'quantity'>): number {
  return s.unitAmount * s.quantity;
}

/** The card a renewal charges: the default one, or else the first. */
export function chargedCard(methods: PaymentMethod[]): PaymentMethod | undefined {
  return methods.find((m) => m.isDefault) ?? methods[0];
}

/** A card works until the end of its expiry month: this is the first moment it no longer does. */
export function cardEndsAt(m: Pick<PaymentMethod, 'expMonth' | 'expYear'>): Date {
  return new Date(m.expYear, m.expMonth, 1);
}

export const cardLabel = (m: Pick<PaymentMethod, 'brand' | 'last4'>) => `${cardBrandLabel(m.brand)} ending in ${m.last4}`;

const licensePath = (key: string) => `${PAGES.licenses.path}?highlight=${encodeURIComponent(key)}`;

/** Current subscriptions, the one ending or renewing first on top. */
export function currentSubscriptions(subscriptions: Subscription[], now: Date): Subscription[] {
  return subscriptions.filter((s) => isCurrent(s, now)).sort((a, b) => endOf(a).getTime() - endOf(b).getTime());
}

export interface WarningInput {
  subscriptions: Subscription[];
  /** Undefined while unknown: no card warning is given then. */
  methods: PaymentMethod[] | undefined;
  /** Undefined while unknown: no license warning is given then. */
  summary: LicenseSummary | undefined;
  now: Date;
}

/**
 * What needs the customer's attention, most urgent first (a failing payment is told by the banner
 * above every signed-in page, not a second time here): a suspended license; a card that expires
 * before a renewal (or no card at all); a license at its node limit; a cancelled subscription
 * about to end; a license without a subscription about to expire; a renewal within a week.
 */
export function dashboardWarnings({ subscriptions, methods, summary, now }: WarningInput): DashboardWarning[] {
  const out: DashboardWarning[] = [];
  const current = currentSubscriptions(subscriptions, now);
  const renewing = current.filter((s) => !s.cancelAtPeriodEnd);
  const billing = PAGES.billing.path;

  if (summary && summary.suspended.length > 0) out.push(suspendedAttention(summary.suspended, summary.suspensionMessages));

  if (methods && renewing.length > 0) {
    const card = chargedCard(methods);
    const first = renewing[0]!;
    if (!card) {
      out.push({
        id: 'no-card',
        level: 'yellow',
        title: 'No card for the next renewal',
        message: `Your subscription renews on ${formatDate(first.currentPeriodEnd)} and there is no card to charge. Add a card to keep your licenses.`,
        action: { label: 'Add a card', to: billing },
      });
    } else {
      const short = renewing.find((s) => cardEndsAt(card).getTime() <= endOf(s).getTime());
      if (short) {
        const expiry = `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
        out.push({
          id: 'card-expires',
          level: 'yellow',
          title: 'Your card expires before the next renewal',
          message: `${cardLabel(card)} expires at the end of ${expiry}; your subscription renews on ${formatDate(short.currentPeriodEnd)}. Add a new card before then.`,
          action: { label: 'Add a card', to: billing },
        });
      }
    }
  }

  if (summary && summary.atLimit.length > 0) {
    const [key] = summary.atLimit;
    out.push(
      summary.atLimit.length === 1
        ? {
            id: 'at-limit',
            level: 'yellow',
            title: 'A license is at its node limit',
            message: `Every node of license ${key} is in use, so no other machine can be activated. Add nodes to your subscription, or release a machine you no longer use.`,
            action: { label: 'View license', to: licensePath(key!) },
          }
        : {
            id: 'at-limit',
            level: 'yellow',
            title: `${summary.atLimit.length} licenses are at their node limit`,
            message:
              'Every node of these licenses is in use, so no other machine can be activated on them. Add nodes to your subscription, or release machines you no longer use.',
            action: { label: 'View licenses', to: PAGES.licenses.path },
          },
    );
  }

  for (const s of current.filter((x) => x.cancelAtPeriodEnd)) {
    if (endOf(s).getTime() - now.getTime() > ENDING_SOON_DAYS * DAY_MS) continue;
    out.push({
      id: `ending-${s.stripeId}`,
      level: 'yellow',
      title: `Your subscription ends ${formatRelative(s.currentPeriodEnd, now)}`,
      message: `It was cancelled: on ${formatDate(s.currentPeriodEnd)} access to the products ends and its license stops validating. Re-activate it to keep it; nothing is charged until then.`,
      action: { label: 'Re-activate', to: billing },
    });
  }

  if (summary) {
    const covered = new Set(current.map((s) => s.licenseKey).filter(Boolean));
    for (const e of summary.expiringSoon.filter((x) => !covered.has(x.key))) {
      out.push({
        id: `license-expiring-${e.key}`,
        level: 'yellow',
        title: `A license expires ${formatRelative(e.expiresAt, now)}`,
        message: `License ${e.key} stops validating on ${formatDate(e.expiresAt)}.`,
        action: { label: 'View license', to: licensePath(e.key) },
      });
    }
  }

  for (const s of renewing) {
    if (s.status !== 'active' || endOf(s).getTime() - now.getTime() > RENEWAL_SOON_DAYS * DAY_MS) continue;
    const card = methods ? chargedCard(methods) : undefined;
    out.push({
      id: `renewal-${s.stripeId}`,
      level: 'info',
      title: `Your subscription renews ${formatRelative(s.currentPeriodEnd, now)}`,
      message: `On ${formatDate(s.currentPeriodEnd)}, ${formatMoney(renewalAmount(s), s.currency)} will be charged for ${plural(s.quantity, 'node')}, ${intervalLabel(s.interval)}${card ? `, to your ${cardLabel(card)}` : ''}.`,
      action: { label: 'View billing', to: billing },
    });
  }

  return out;
}

export type StepId = 'subscribe' | 'download' | 'activate';

export interface NextStep {
  id: StepId;
  done: boolean;
}

/**
 * The way in for a new customer: buy a subscription, download the ISO, activate a node. Null once
 * a node is active (the customer is set up), while a license is suspended (support, not a first
 * step, is what the customer needs then), and while the figures are unknown.
 */
export function nextSteps(input: {
  subscriptions: Subscription[] | undefined;
  summary: LicenseSummary | undefined;
  now: Date;
}): NextStep[] | null {
  const { subscriptions, summary, now } = input;
  if (!subscriptions || !summary) return null;
  if (summary.activeNodes > 0 || summary.suspended.length > 0) return null;
  const subscribed = subscriptions.some((s) => isCurrent(s, now)) || summary.maxNodes > 0;
  return [
    { id: 'subscribe', done: subscribed },
    { id: 'download', done: false },
    { id: 'activate', done: false },
  ];
}
