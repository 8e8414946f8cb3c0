import { useEffect, useState } from 'react';
import { Grid, Paper, Skeleton, Stack, Title } from '@mantine/core';
import type { Subscription } from '@portal/contract';
import { ErrorDisplay } from '../../../components/error-display';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/state/hooks';
import { useListPaymentMethodsQuery, useListSubscriptionsQuery } from '../api';
import { subscriptionState } from '../billing-display';
import { AddCardDialog } from './add-card-dialog';
import { CheckoutCard } from './checkout-card';
import { PaymentMethodsCard } from './payment-methods-card';
import { SubscriptionCard } from './subscription-card';

const AWAITING_POLL_MS = 3000;
const CONTAINER_BREAKPOINTS = { xs: '30em', sm: '36em', md: '44em', lg: '60em', xl: '75em' };

/** Running subscriptions first, ended ones last; newest first within each. */
function ordered(items: Subscription[]): Subscription[] {
  const rank = (s: Subscription) => (subscriptionState(s) === 'ended' ? 1 : 0);
  return [...items].sort((a, b) => rank(a) - rank(b) || b.currentPeriodStart.localeCompare(a.currentPeriodStart));
}

function SubscriptionSkeleton() {
  return (
    <Paper withBorder p="lg" aria-busy="true" aria-label="Loading subscriptions">
      <Stack gap="md">
        <Skeleton height={20} width="40%" />
        <Skeleton height={12} width="25%" />
        <Skeleton height={48} />
        <Skeleton height={120} />
      </Stack>
    </Paper>
  );
}

/** /app/billing: subscriptions with their invoices, the checkout, and the payment methods. */
export function BillingPage() {
  const dispatch = useAppDispatch();
  // A subscription awaiting its first payment turns active when Stripe's webhook arrives: poll until then.
  const [pollingInterval, setPollingInterval] = useState(0);
  const subscriptions = useListSubscriptionsQuery(undefined, { pollingInterval });
  const awaiting = subscriptions.data?.items.some((s) => s.status === 'incomplete') ?? false;
  useEffect(() => {
    // Its license is issued with the payment: the licenses list is stale from then on.
    if (pollingInterval > 0 && !awaiting) dispatch(api.util.invalidateTags(['Licenses']));
    setPollingInterval(awaiting ? AWAITING_POLL_MS : 0);
  }, [awaiting, pollingInterval, dispatch]);
  const methods = useListPaymentMethodsQuery();
  const items = subscriptions.data ? ordered(subscriptions.data.items) : [];
  const hasRunning = items.some((s) => subscriptionState(s) !== 'ended');

  const checkout = (variant: 'first' | 'another') => (
    <CheckoutCard key={variant} methods={methods.data?.items} methodsLoading={methods.isLoading} variant={variant} />
  );

  // A customer without a running subscription sees the checkout first; a subscriber, the cards.
  const first = !subscriptions.isLoading && !subscriptions.error && !hasRunning;
  const methodsCol = (
    <Grid.Col key="methods" span={{ base: 12, md: first ? 5 : 6 }}>
      <PaymentMethodsCard methods={methods.data?.items} isLoading={methods.isLoading} error={methods.error} />
    </Grid.Col>
  );
  const checkoutCol = (
    <Grid.Col key="checkout" span={{ base: 12, md: first ? 7 : 6 }}>
      {subscriptions.isLoading || subscriptions.error ? null : checkout(first ? 'first' : 'another')}
    </Grid.Col>
  );

  return (
    <PageFrame title={PAGES.billing.title} description="Your subscriptions, invoices and payment cards.">
      {subscriptions.isLoading ? (
        <SubscriptionSkeleton />
      ) : subscriptions.error ? (
        <Paper withBorder p="lg">
          <ErrorDisplay error={subscriptions.error} />
        </Paper>
      ) : hasRunning ? (
        <Stack gap="lg" component="section" aria-labelledby="billing-subscriptions-title">
          <Title order={2} size="h4" id="billing-subscriptions-title">
            Subscriptions
          </Title>
          {items.map((s) => (
            <SubscriptionCard key={s.stripeId} subscription={s} />
          ))}
        </Stack>
      ) : null}
      {/* Widths follow the content column, not the window: the side menu takes its share. */}
      <Grid type="container" breakpoints={CONTAINER_BREAKPOINTS} gap="lg" align="flex-start">
        {/* Keyed and reordered, never remounted: a click on 'Add card' must not land on a replaced button. */}
        {first ? [checkoutCol, methodsCol] : [methodsCol, checkoutCol]}
      </Grid>
      {!hasRunning && items.length > 0 ? (
        <Stack gap="lg" component="section" aria-labelledby="billing-ended-title">
          <Title order={2} size="h4" id="billing-ended-title">
            Earlier subscriptions
          </Title>
          {items.map((s) => (
            <SubscriptionCard key={s.stripeId} subscription={s} />
          ))}
        </Stack>
      ) : null}
      <AddCardDialog />
    </PageFrame>
  );
}
