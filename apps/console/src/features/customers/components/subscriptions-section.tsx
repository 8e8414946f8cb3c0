import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconCalendarX, IconCreditCardPay, IconPlayerStop, IconRepeat, IconRotateClockwise } from '@tabler/icons-react';
import { intervalLabel, plural, type ConsoleSubscription, subscriptionState, formatDate, formatMoney } from '@portal/contract';
import { RowMenu } from '../../../components/row-menu';
import { useMay } from '../../../lib/permissions';
import { staffSubscriptionBadge } from '../../../lib/subscription-label';
import type { PendingAction } from '../actions/action-dialog';
import { CustomerSection } from './customer-section';
import { DunningFacts } from './dunning-facts';
import { InvoicesTable } from './invoices-table';
import { StatusBadge, CopyIcon, LicenseKeyText } from '@portal/ui';

type OnAction = (a: PendingAction) => void;

/** The customer's subscriptions, newest first, each with its invoices. */
export function SubscriptionsSection({ subscriptions, onAction }: { subscriptions: ConsoleSubscription[]; onAction: OnAction }) {
  return (
    <CustomerSection
      id="subscriptions"
      icon={IconRepeat}
      title="Subscriptions"
      description="Plans, renewals and invoices"
      empty={
        subscriptions.length
          ? null
          : {
              title: 'No subscriptions',
              description: 'This customer has not subscribed. A complimentary license can be issued from More actions.',
            }
      }
    >
      <Stack gap="md">
        {subscriptions.map((s) => (
          <SubscriptionItem key={s.subscriptionId} subscription={s} onAction={onAction} />
        ))}
      </Stack>
    </CustomerSection>
  );
}

function SubscriptionItem({ subscription: s, onAction }: { subscription: ConsoleSubscription; onAction: OnAction }) {
  const mayCancel = useMay('cancelAtPeriodEnd');
  const mayReactivate = useMay('reactivateSubscription');
  const mayCancelNow = useMay('cancelNow');
  const mayRetry = useMay('retryPayment');
  const state = subscriptionState(s);
  const badge = staffSubscriptionBadge(s);
  const params = { subscriptionId: s.subscriptionId };
  const subject = s.subscriptionId;
  const ended = state === 'ended';
  const total = s.unitAmount * s.quantity;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={600}>{s.plan}</Text>
              <StatusBadge tone={badge.tone}>{badge.label}</StatusBadge>
              {s.provider === 'stripe' ? (
                <Text size="xs" c="dimmed">
                  Stripe
                </Text>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed" className="console-figure">
              {plural(s.quantity, 'node')} · {formatMoney(total, s.currency)} {intervalLabel(s.interval).toLowerCase()} ·{' '}
              {ended ? 'Ended' : s.cancelAtPeriodEnd ? 'Ends' : s.dunning ? 'Unpaid period ends' : 'Renews'}{' '}
              {formatDate(s.currentPeriodEnd)}
            </Text>
          </Stack>
          <RowMenu
            label={`Actions for subscription ${s.subscriptionId}`}
            items={[
              {
                label: 'Retry payment now…',
                icon: <IconCreditCardPay size={16} />,
                onClick: () => onAction({ route: 'retryPayment', params, subject }),
                // Stripe retries its own subscriptions' payments (Smart Retries).
                hidden: !mayRetry || !s.dunning || s.provider === 'stripe',
              },
              {
                label: 'Cancel at period end…',
                icon: <IconCalendarX size={16} />,
                onClick: () => onAction({ route: 'cancelAtPeriodEnd', params, subject }),
                hidden: !mayCancel || ended || s.cancelAtPeriodEnd,
              },
              {
                label: 'Re-activate…',
                icon: <IconRotateClockwise size={16} />,
                onClick: () => onAction({ route: 'reactivateSubscription', params, subject }),
                hidden: !mayReactivate || ended || !s.cancelAtPeriodEnd,
              },
              {
                label: 'Cancel now…',
                icon: <IconPlayerStop size={16} />,
                onClick: () => onAction({ route: 'cancelNow', params, subject }),
                hidden: !mayCancelNow || ended,
                danger: true,
              },
            ]}
          />
        </Group>
        {s.dunning ? <DunningFacts dunning={s.dunning} stripe={s.provider === 'stripe'} /> : null}
        <Group gap="lg" wrap="wrap">
          <Group gap={4} wrap="nowrap">
            <Text size="xs" c="dimmed">
              Subscription
            </Text>
            <Text size="xs" ff="monospace">
              {s.subscriptionId}
            </Text>
            <CopyIcon value={s.subscriptionId} label="Copy subscription id" />
          </Group>
          {s.licenseKey ? (
            <Group gap={6} wrap="nowrap">
              <Text size="xs" c="dimmed">
                License
              </Text>
              <LicenseKeyText licenseKey={s.licenseKey} size="xs" />
            </Group>
          ) : null}
        </Group>
        <InvoicesTable invoices={s.invoices} onAction={onAction} />
      </Stack>
    </Paper>
  );
}
