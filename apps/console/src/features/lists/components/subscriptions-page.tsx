import { Stack, Text } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { intervalLabel, type ConsoleSubscriptionRow, formatDate, formatMoney } from '@portal/contract';
import { CustomerLink } from '../../../components/customer-link';
import classes from '../../../components/data-table.module.css';
import type { Column } from '../../../components/data-table';
import { ListPage, type ListFilter } from '../../../components/list-page';
import { PAYMENT_FAILING, staffSubscriptionBadge } from '../../../lib/subscription-label';
import { useListSubscriptionsQuery } from '../api';
import { StatusBadge } from '@portal/ui';

const COLUMNS: ReadonlyArray<Column<ConsoleSubscriptionRow>> = [
  {
    key: 'customer',
    header: 'Customer',
    // The subscription's id under its customer: a column of its own left the e-mail too little room.
    cell: (r) => (
      <Stack gap={0}>
        <span className={classes.truncate} title={r.email}>
          <CustomerLink userId={r.userId}>{r.email}</CustomerLink>
        </span>
        <Text span ff="monospace" size="xs" c="dimmed" className={classes.truncate} title={r.subscriptionId}>
          {r.subscriptionId}
        </Text>
      </Stack>
    ),
    skeleton: 180,
  },
  {
    key: 'status',
    header: 'Status',
    cell: (r) => {
      const b = staffSubscriptionBadge(r);
      return (
        <StatusBadge tone={b.tone} size="sm">
          {b.label}
        </StatusBadge>
      );
    },
    skeleton: 70,
    width: 140,
  },
  {
    key: 'nodes',
    header: 'Nodes',
    align: 'right',
    cell: (r) => <span className="console-figure">{r.quantity}</span>,
    skeleton: 24,
    width: 70,
  },
  {
    key: 'amount',
    header: 'Amount',
    sort: 'amount',
    align: 'right',
    cell: (r) => <span className="console-figure">{`${formatMoney(r.amount, r.currency)} ${intervalLabel(r.interval)}`}</span>,
    skeleton: 110,
    width: 140,
  },
  {
    key: 'period',
    header: 'Period ends',
    sort: 'currentPeriodEnd',
    cell: (r) => formatDate(r.currentPeriodEnd),
    skeleton: 90,
    width: 120,
  },
  {
    key: 'retry',
    header: 'Next retry',
    // A failing payment's next retry, and until when its license stays valid (the grace).
    cell: (r) =>
      r.accessUntil ? (
        <Stack gap={0}>
          <span>{r.nextAttemptAt ? formatDate(r.nextAttemptAt) : 'None left'}</span>
          <Text span size="xs" c="dimmed">
            Access until {formatDate(r.accessUntil)}
          </Text>
        </Stack>
      ) : (
        <Text span c="dimmed" aria-label="None">
          –
        </Text>
      ),
    skeleton: 90,
    width: 150,
  },
  { key: 'created', header: 'Started', sort: 'createdAt', cell: (r) => formatDate(r.createdAt), skeleton: 90, width: 115 },
];

const FILTERS: readonly ListFilter[] = [
  {
    name: 'status',
    label: 'Status',
    // 'Status: Payment failing' whole at a laptop's width.
    width: 210,
    options: [
      { value: 'active', label: 'Active' },
      { value: 'past_due', label: PAYMENT_FAILING },
      { value: 'incomplete', label: 'Awaiting payment' },
      { value: 'canceled', label: 'Ended' },
    ],
  },
  {
    name: 'interval',
    label: 'Interval',
    options: [
      { value: 'month', label: 'Monthly' },
      { value: 'year', label: 'Yearly' },
    ],
  },
  {
    name: 'cancelAtPeriodEnd',
    label: 'Cancelling',
    options: [
      { value: 'true', label: 'Yes' },
      { value: 'false', label: 'No' },
    ],
  },
];

/** /subscriptions: every subscription, by status, interval and cancellation. */
export default function SubscriptionsPage() {
  return (
    <ListPage
      title="Subscriptions"
      description="Every subscription with its amount and renewal; find the failing payments (with their next retry) and the cancelling here."
      route="listSubscriptions"
      useRows={useListSubscriptionsQuery}
      filterPlaceholder="Filter by e-mail or subscription"
      filters={FILTERS}
      columns={COLUMNS}
      rowKey={(r) => r.subscriptionId}
      noun={['subscription', 'subscriptions']}
      empty={{
        icon: <IconRepeat />,
        title: 'No subscriptions found',
        description: 'No subscription matches these filters. Clear a filter to see more.',
      }}
    />
  );
}
