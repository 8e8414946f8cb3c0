import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Grid, Stack, Title } from '@mantine/core';
import { type Subscription, subscriptionState } from '@portal/contract';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/state/hooks';
import { useListInvoicesQuery, useListPaymentMethodsQuery, useListPricesQuery, useListSubscriptionsQuery } from '../api';
import { AddCardDialog } from './add-card-dialog';
import { BillingDetailsCard } from './billing-details-card';
import { BillingSkeleton, CONTAINER_BREAKPOINTS } from './billing-skeleton';
import { CheckoutCard } from './checkout-card';
import { PayInvoiceDialog } from './pay-invoice-dialog';
import { PaymentMethodsCard } from './payment-methods-card';
import { SubscriptionCard } from './subscription-card';
import { ErrorDisplay } from '@portal/ui';

const AWAITING_POLL_MS = 3000;

/** Running subscriptions first, ended ones last; newest first within each. */
function ordered(items: Subscription[]): Subscription[] {
  const rank = (s: Subscription) => (subscriptionState(s) === 'ended' ? 1 : 0);
  return [...items].sort((a, b) => rank(a) - rank(b) || b.currentPeriodStart.localeCompare(a.currentPeriodStart));
}

/** Asks for one subscription's invoices (the table reads them from the cache) and says when they are in. */
function InvoicesLoader({ subscriptionId, onSettled }: { subscriptionId: string; onSettled: (subscriptionId: string) => void }) {
  const { isSuccess, isError } = useListInvoicesQuery(subscriptionId);
  useEffect(() => {
    if (isSuccess || isError) onSettled(subscriptionId);
  }, [isSuccess, isError, onSettled, subscriptionId]);
  return null;
}

/**
 * The first answers the page is laid out from: subscriptions, cards, prices and each
 * subscription's invoices (an error counts as an answer). Until they are all in, one skeleton
 * stands for the page, so nothing on it moves when data arrives (the checkout's prices came in
 * after the rest and pushed the cards down on a phone); later refetches never bring it back.
 */
function useFirstLoad(subscriptionIds: string[] | undefined, othersSettled: boolean) {
  const [settled, setSettled] = useState<ReadonlySet<string>>(() => new Set());
  const onSettled = useCallback((id: string) => setSettled((prev) => (prev.has(id) ? prev : new Set(prev).add(id))), []);
  const done = useRef(false);
  if (subscriptionIds !== undefined && othersSettled && subscriptionIds.every((id) => settled.has(id))) {
    done.current = true;
  }
  const loaders =
    done.current || subscriptionIds === undefined
      ? null
      : subscriptionIds.map((id) => <InvoicesLoader key={id} subscriptionId={id} onSettled={onSettled} />);
  return { ready: done.current, loaders };
}

export interface BillingPageProps {
  /**
   * The keys of the customer's licenses staff suspended (read by the composing page from the
   * licenses), so a subscription says its license is suspended; null while unknown.
   */
  suspendedLicenses?: readonly string[] | null;
  /** What staff told the customer about those suspensions, by license key (only those with a message). */
  suspensionMessages?: Readonly<Partial<Record<string, string>>>;
}

const NONE: readonly string[] = [];
const NO_MESSAGES: Readonly<Partial<Record<string, string>>> = {};

/** /app/billing: subscriptions with their invoices, the checkout, and the payment methods. */
export function BillingPage({ suspendedLicenses = NONE, suspensionMessages = NO_MESSAGES }: BillingPageProps) {
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
  // The checkout reads the same cache entry.
  const prices = useListPricesQuery();
  const items = subscriptions.data ? ordered(subscriptions.data.items) : [];
  const hasRunning = items.some((s) => subscriptionState(s) !== 'ended');
  const { ready, loaders } = useFirstLoad(
    subscriptions.isLoading ? undefined : items.map((s) => s.stripeId),
    !methods.isLoading && !prices.isLoading && suspendedLicenses !== null,
  );
  const suspended = (s: Subscription) => s.licenseKey !== null && (suspendedLicenses ?? NONE).includes(s.licenseKey);

  // A customer without a running subscription sees the checkout open; a subscriber, a short
  // prompt. Either way the checkout is on the left and the cards on the right, so the page keeps
  // its shape from one state to the next.
  const first = !subscriptions.error && !hasRunning;
  const grid = (
    <Grid type="container" breakpoints={CONTAINER_BREAKPOINTS} gap="lg" align="flex-start">
      <Grid.Col span={{ base: 12, md: 7 }}>
        {subscriptions.error ? null : (
          <CheckoutCard
            key={first ? 'first' : 'another'}
            methods={methods.data?.items}
            methodsLoading={methods.isLoading}
            variant={first ? 'first' : 'another'}
          />
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="lg">
          <PaymentMethodsCard
            methods={methods.data?.items}
            isLoading={methods.isLoading}
            error={methods.error}
            onRetry={methods.refetch}
            retrying={methods.isFetching}
          />
          <BillingDetailsCard />
        </Stack>
      </Grid.Col>
    </Grid>
  );

  return (
    <PageFrame title={PAGES.billing.title} description="Your subscriptions, invoices and payment cards.">
      {loaders}
      {!ready ? (
        subscriptions.isLoading ? (
          // The page's shape depends on the subscriptions (a subscriber's above the grid, none for a
          // new customer): nothing is drawn until they are known, so nothing drawn has to move.
          <Box aria-busy="true" aria-label="Loading billing" />
        ) : (
          <BillingSkeleton subscriptions={hasRunning ? items.length : 0} earlier={hasRunning ? 0 : items.length} />
        )
      ) : (
        <>
          {subscriptions.error ? (
            <ErrorDisplay error={subscriptions.error} onRetry={subscriptions.refetch} retrying={subscriptions.isFetching} />
          ) : hasRunning ? (
            <Stack gap="lg" component="section" aria-labelledby="billing-subscriptions-title">
              <Title order={2} size="h4" id="billing-subscriptions-title">
                Subscriptions
              </Title>
              {items.map((s) => (
                <SubscriptionCard
                  key={s.stripeId}
                  subscription={s}
                  licenseSuspended={suspended(s)}
                  suspensionMessage={s.licenseKey ? suspensionMessages[s.licenseKey] : null}
                />
              ))}
            </Stack>
          ) : null}
          {grid}
          {!hasRunning && items.length > 0 ? (
            <Stack gap="lg" component="section" aria-labelledby="billing-ended-title">
              <Title order={2} size="h4" id="billing-ended-title">
                Earlier subscriptions
              </Title>
              {items.map((s) => (
                <SubscriptionCard
                  key={s.stripeId}
                  subscription={s}
                  licenseSuspended={suspended(s)}
                  suspensionMessage={s.licenseKey ? suspensionMessages[s.licenseKey] : null}
                />
              ))}
            </Stack>
          ) : null}
        </>
      )}
      <AddCardDialog />
      {ready ? <PayInvoiceDialog subscriptions={items} methods={methods.data?.items} /> : null}
    </PageFrame>
  );
}
