import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCreditCard } from '@tabler/icons-react';
import { plural, type Subscription, formatDate, formatMoney } from '@portal/contract';
import { Link } from 'react-router';
import { useListSubscriptionsQuery } from '../api';
import { payPath } from '../billing-display';

/** The subscriptions whose payment is failing (past_due, in grace). */
export const failingPayments = (items: Subscription[] | undefined) =>
  (items ?? []).filter((s) => s.status === 'past_due' && s.paymentFailing !== null);

/**
 * On every signed-in page while a payment is failing: what is owed, the day access ends (the
 * grace's end), the next automatic try when one is planned, and the one action that fixes it.
 */
export function PaymentFailingBanner() {
  const { data } = useListSubscriptionsQuery();
  const failing = failingPayments(data?.items);
  if (failing.length === 0) return null;
  return (
    // As wide as the page under it (PageFrame).
    <Stack gap="sm" mb="lg" maw={1120} mx="auto" w="100%">
      {failing.map((s) => (
        <FailingPayment key={s.stripeId} subscription={s} />
      ))}
    </Stack>
  );
}

function FailingPayment({ subscription: s }: { subscription: Subscription }) {
  const f = s.paymentFailing!;
  return (
    <Alert
      role="alert"
      variant="light"
      color="red"
      radius="md"
      icon={<IconAlertTriangle size={20} stroke={1.8} />}
      title="Your payment failed"
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          We could not charge{' '}
          <strong style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(f.amountDue, f.currency)}</strong> for your
          subscription of {plural(s.quantity, 'node')}. Your license keeps working until{' '}
          <strong>{formatDate(f.accessUntil)}</strong>; pay before then to keep your nodes running.
          {f.nextAttemptAt ? ` We will try your card again on ${formatDate(f.nextAttemptAt)}.` : ''}
        </Text>
        <Button component={Link} to={payPath(s.stripeId)} color="red" size="sm" leftSection={<IconCreditCard size={16} />}>
          Pay now
        </Button>
      </Stack>
    </Alert>
  );
}
