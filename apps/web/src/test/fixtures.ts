import type { DownloadInfo, Subscription, SupportInfo } from '@portal/contract';
import type { SubscriptionModalProps } from '../lib/state/menu-slice';

/** A subscription modal's props for tests that care about one or two of them. */
export function subscriptionModalProps(overrides: Partial<SubscriptionModalProps> = {}): SubscriptionModalProps {
  return {
    stripeId: 'sub_1',
    plan: 'Node license',
    quantity: 1,
    interval: 'month',
    currentPeriodEnd: '2026-07-01T00:00:00Z',
    unitAmount: 2500,
    currency: 'usd',
    ...overrides,
  };
}

/** A running monthly subscription of three nodes; tests name what they rely on. */
export function aSubscription(
  fields: Pick<Subscription, 'stripeId' | 'currentPeriodStart' | 'currentPeriodEnd' | 'plan' | 'unitAmount' | 'licenseKey'> &
    Partial<Subscription>,
): Subscription {
  return {
    status: 'active',
    quantity: 3,
    interval: 'month',
    cancelAtPeriodEnd: false,
    endedReason: null,
    currency: 'usd',
    paymentFailing: null,
    ...fields,
  };
}

/** The standard support plan as GET /api/products/support answers it, for `licensedNodes` nodes. */
export function aSupportPlan(licensedNodes: number): SupportInfo {
  return {
    plan: 'standard',
    planName: 'Standard support',
    summary: 'Standard.',
    licensedNodes,
    premiumMinNodes: 10,
    channels: [],
    hours: 'Weekdays',
    responseTargets: [],
    links: [],
  };
}

/** The latest ISO (version 3.0.0) as GET /api/products/pce/download answers it, its link valid until `expiresAt`. */
export function aDownload(expiresAt: string): DownloadInfo {
  return {
    url: 'http://localhost/x',
    expiresAt,
    filename: 'pce-3.0.0.iso',
    version: '3.0.0',
    size: 10,
    sha256: 'a'.repeat(64),
    releaseNotesUrl: null,
  };
}
