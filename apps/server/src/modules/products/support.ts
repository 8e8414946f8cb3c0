import type { Subscription, SupportInfo, SupportPlan } from '@portal/contract';
import type { Config } from '../../config';

/**
 * The support plan follows from the customer's subscriptions (docs/decisions, support plans):
 * - a subscription counts while it is active or past due and its paid period has not ended (one
 *   cancelled at the period end still counts until then);
 * - no counting subscription: `none` (community: e-mail answered on a best-effort basis);
 * - counting subscriptions with fewer than PREMIUM_SUPPORT_MIN_NODES licensed nodes in total: `standard`;
 * - at least PREMIUM_SUPPORT_MIN_NODES licensed nodes (the sum of their quantities): `premium`.
 * Licensed, not activated, nodes decide, so the plan does not change while machines are reinstalled.
 */
export function derivePlan(
  subscriptions: Pick<Subscription, 'status' | 'quantity' | 'currentPeriodEnd'>[],
  now: Date,
  premiumMinNodes: number,
) {
  const counting = subscriptions.filter(
    (s) => (s.status === 'active' || s.status === 'past_due') && new Date(s.currentPeriodEnd).getTime() > now.getTime(),
  );
  const licensedNodes = counting.reduce((sum, s) => sum + s.quantity, 0);
  const plan: SupportPlan = counting.length === 0 ? 'none' : licensedNodes >= premiumMinNodes ? 'premium' : 'standard';
  return { plan, licensedNodes };
}

type Target = SupportInfo['responseTargets'][number];
const SEVERITIES = [
  { severity: 'Severity 1 (critical)', description: 'Production is down or data is at risk, and there is no workaround' },
  { severity: 'Severity 2 (high)', description: 'A major function does not work; production runs with limitations' },
  { severity: 'Severity 3 (normal)', description: 'A problem with a workaround, or a minor loss of function' },
  { severity: 'Severity 4 (low)', description: 'Questions, documentation and feature requests' },
] as const;

/** First-response targets by severity; business hours are those of SUPPORT_HOURS. */
const TARGETS: Record<Exclude<SupportPlan, 'none'>, [string, string, string, string]> = {
  standard: ['4 business hours', '1 business day', '2 business days', '5 business days'],
  premium: ['1 hour, around the clock (24/7)', '4 business hours', '1 business day', '2 business days'],
};

export function supportInfoFor(input: {
  subscriptions: Pick<Subscription, 'status' | 'quantity' | 'currentPeriodEnd'>[];
  now: Date;
  config: Pick<Config, 'brand' | 'support'>;
}): SupportInfo {
  const { brand, support } = input.config;
  const { plan, licensedNodes } = derivePlan(input.subscriptions, input.now, support.premiumMinNodes);
  const links = [
    { label: 'Documentation', url: brand.docsUrl },
    { label: 'Knowledge base', url: support.knowledgeBaseUrl },
    { label: 'Status page', url: support.statusPageUrl },
  ];
  const portal = support.portalUrl ? [{ kind: 'portal' as const, label: 'Support portal', value: support.portalUrl }] : [];
  const base = { plan, licensedNodes, premiumMinNodes: support.premiumMinNodes, links };

  if (plan === 'none') {
    return {
      ...base,
      planName: 'Community support',
      summary:
        'You have no active subscription, so no support plan applies. E-mails to support are answered on a best-effort basis, ' +
        'without a guaranteed response time, and the documentation, knowledge base and status page are open to everyone. ' +
        'Every subscription includes standard support.',
      channels: [{ kind: 'email', label: 'E-mail (best effort)', value: support.email }],
      hours: `Best effort, during business hours (${support.hours})`,
      responseTargets: [
        {
          severity: 'Any request',
          description: 'Questions and problems of any kind',
          target: 'Best effort, no guaranteed response time',
        },
      ],
    };
  }

  const responseTargets: Target[] = SEVERITIES.map((s, i) => ({ ...s, target: TARGETS[plan][i]! }));
  if (plan === 'standard') {
    return {
      ...base,
      planName: 'Standard support',
      summary:
        `Standard support comes with your subscription: e-mail support during business hours, with the response times below. ` +
        `With ${support.premiumMinNodes} or more licensed nodes, support becomes premium.`,
      channels: [{ kind: 'email', label: 'E-mail', value: support.email }, ...portal],
      hours: support.hours,
      responseTargets,
    };
  }
  return {
    ...base,
    planName: 'Premium support',
    summary:
      `Premium support comes with your ${licensedNodes} licensed nodes: phone and e-mail support, ` +
      'and critical problems are answered around the clock.',
    channels: [
      { kind: 'phone', label: 'Phone', value: support.phone },
      { kind: 'email', label: 'E-mail', value: support.email },
      ...portal,
    ],
    hours: `${support.hours}; severity 1 (critical) around the clock, 24/7`,
    responseTargets,
  };
}
