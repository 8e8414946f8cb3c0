import { Fragment } from 'react';
import { Button, Divider, Group, Progress, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconCreditCard, IconKey } from '@tabler/icons-react';
import {
  type LicenseSummary,
  type Subscription,
  type StatusTone,
  formatDate,
  formatMoney,
  USAGE_COLOR,
  usageLevel,
} from '@portal/contract';
import { Link } from 'react-router';
import { intervalLabel, PAYMENT_FAILING_LABEL, plural } from '@portal/contract';
import { PAGES } from '../../../lib/pages';
import { currentSubscriptions, renewalAmount } from '../dashboard-logic';
import { DashboardCard, Figure, LoadableBody, type Loadable } from './dashboard-card';
import { StatusBadge } from '@portal/ui';

const ICON = { size: 18, stroke: 1.7 } as const;

/** Nodes in use across every license: the first figure a customer looks for. */
export function LicensesCard({ summary }: { summary: Loadable<LicenseSummary> }) {
  return (
    <DashboardCard
      icon={<IconKey {...ICON} />}
      title="Licenses"
      link={{ label: 'Manage', to: PAGES.licenses.path }}
      footer={
        summary.data && summary.data.licenses > 0 ? (
          <Text size="sm" c="dimmed">
            {plural(summary.data.licenses, 'license')}
          </Text>
        ) : null
      }
    >
      <LoadableBody read={summary} label="Loading licenses">
        {(data) =>
          data.licenses === 0 ? (
            <Stack gap={4}>
              <Text fw={600}>No licenses yet</Text>
              <Text size="sm" c="dimmed">
                A license key is issued when you buy a subscription.
              </Text>
            </Stack>
          ) : data.maxNodes === 0 ? (
            <NoUsableLicense suspended={data.suspended.length} />
          ) : (
            <NodesInUse active={data.activeNodes} max={data.maxNodes} />
          )
        }
      </LoadableBody>
    </DashboardCard>
  );
}

/** No license validates now: no '0 of 0' and no bar, but why, and whom to ask when staff suspended one. */
function NoUsableLicense({ suspended }: { suspended: number }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>{suspended > 0 ? (suspended === 1 ? 'License suspended' : 'Licenses suspended') : 'No valid license'}</Text>
      <Text size="sm" c="dimmed">
        {suspended > 0 ? (
          <>
            No machine validates until the vendor resumes it. <Link to={PAGES.support.path}>Contact support</Link>
          </>
        ) : (
          'No license is valid at the moment: it expired or its subscription ended.'
        )}
      </Text>
    </Stack>
  );
}

function NodesInUse({ active, max }: { active: number; max: number }) {
  const level = usageLevel(active, max);
  const free = Math.max(0, max - active);
  return (
    <Stack gap="sm">
      <Figure label="Nodes in use" value={`${active} of ${max}`} />
      <Progress
        value={Math.min(100, (active / max) * 100)}
        color={USAGE_COLOR[level]}
        size="md"
        radius="xl"
        aria-label={`${active} of ${max} nodes in use`}
      />
      <Text
        size="sm"
        c={level === 'full' ? 'var(--mantine-color-yellow-text)' : 'dimmed'}
        fw={level === 'full' ? 500 : undefined}
      >
        {level === 'full' ? 'At the limit: no node is free.' : `${plural(free, 'node')} free`}
      </Text>
    </Stack>
  );
}

/** The badge of a running subscription whose license staff suspended: Billing's words for it. */
const LICENSE_SUSPENDED_BADGE = { label: 'License suspended', tone: 'critical' } as const;

function subscriptionBadge(s: Subscription, suspended: boolean): { label: string; tone: StatusTone } {
  if (suspended) return LICENSE_SUSPENDED_BADGE;
  if (s.cancelAtPeriodEnd) return { label: 'Cancelled', tone: 'warning' };
  if (s.status === 'past_due') return { label: PAYMENT_FAILING_LABEL, tone: 'critical' };
  return { label: 'Active', tone: 'positive' };
}

export interface SubscriptionsCardProps {
  subscriptions: Loadable<Subscription[]>;
  now: Date;
  /** Offer 'Choose a plan' here: not while the Get started steps offer it already. */
  offerPlan: boolean;
  /** The keys of the licenses staff suspended: their subscriptions say so instead of 'Active'. */
  suspendedLicenses: readonly string[];
}

/** The next renewal (or the end of a cancelled subscription) first, then what each one holds. */
export function SubscriptionsCard({ subscriptions, now, offerPlan, suspendedLicenses }: SubscriptionsCardProps) {
  const suspended = (s: Subscription) => s.licenseKey !== null && suspendedLicenses.includes(s.licenseKey);
  return (
    <DashboardCard icon={<IconCreditCard {...ICON} />} title="Subscription" link={{ label: 'Billing', to: PAGES.billing.path }}>
      <LoadableBody read={subscriptions} label="Loading subscriptions">
        {(all) => {
          const current = currentSubscriptions(all, now);
          const first = current[0];
          if (!first) return <NoSubscription offerPlan={offerPlan} />;
          return (
            <Stack gap="md">
              {first.paymentFailing ? (
                <Figure label="Access until" value={formatDate(first.paymentFailing.accessUntil)} />
              ) : (
                <Figure
                  label={first.cancelAtPeriodEnd ? 'Access until' : suspended(first) ? 'Next invoice on' : 'Renews on'}
                  value={formatDate(first.currentPeriodEnd)}
                />
              )}
              <Stack gap="sm">
                {current.slice(0, 3).map((s, i) => (
                  <Fragment key={s.stripeId}>
                    {i > 0 ? <Divider /> : null}
                    <SubscriptionLine subscription={s} showDate={i > 0} suspended={suspended(s)} />
                  </Fragment>
                ))}
                {current.length > 3 ? (
                  <Text size="sm" c="dimmed">
                    and {current.length - 3} more
                  </Text>
                ) : null}
              </Stack>
            </Stack>
          );
        }}
      </LoadableBody>
    </DashboardCard>
  );
}

function NoSubscription({ offerPlan }: { offerPlan: boolean }) {
  return (
    <Stack gap="sm" align="flex-start">
      <Stack gap={4}>
        <Text fw={600}>No active subscription</Text>
        <Text size="sm" c="dimmed">
          Subscribe to get a license key, the ISO updates and standard support.
        </Text>
      </Stack>
      {offerPlan ? (
        <Button component={Link} to={PAGES.billing.path} size="sm" variant="light" rightSection={<IconArrowRight size={16} />}>
          Choose a plan
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * '3 nodes · monthly', what a renewal charges, and the state; the date too when it is not the lead
 * figure's. A failing payment shows what is owed, the next try where one is planned, and (beyond
 * the first subscription) until when access lasts.
 */
function SubscriptionLine({
  subscription: s,
  showDate,
  suspended,
}: {
  subscription: Subscription;
  showDate: boolean;
  suspended: boolean;
}) {
  const badge = subscriptionBadge(s, suspended);
  const { note, amount } = lineFacts(s, showDate, suspended);
  return (
    <Stack gap={2}>
      <Group justify="space-between" gap="xs" wrap={s.paymentFailing ? 'wrap' : 'nowrap'}>
        <Text fw={500}>
          {plural(s.quantity, 'node')} · {intervalLabel(s.interval)}
        </Text>
        <StatusBadge tone={badge.tone}>{badge.label}</StatusBadge>
      </Group>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {note}
        </Text>
        {amount === null ? null : (
          <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {amount}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

/** The second line of a subscription: what comes next, and the amount it is about (none when nothing more is charged). */
function lineFacts(s: Subscription, showDate: boolean, suspended: boolean): { note: string; amount: string | null } {
  const f = s.paymentFailing;
  if (f) {
    const next = f.nextAttemptAt ? `Next try on ${formatDate(f.nextAttemptAt)}` : 'Owed now';
    return {
      note: showDate ? `${next} · access until ${formatDate(f.accessUntil)}` : next,
      amount: formatMoney(f.amountDue, f.currency),
    };
  }
  if (s.cancelAtPeriodEnd) {
    return {
      note: showDate ? `Ends on ${formatDate(s.currentPeriodEnd)}` : 'Not renewed: nothing more is charged',
      amount: null,
    };
  }
  return {
    note: showDate ? `${suspended ? 'Next invoice on' : 'Renews on'} ${formatDate(s.currentPeriodEnd)}` : 'Next charge',
    amount: formatMoney(renewalAmount(s), s.currency),
  };
}
