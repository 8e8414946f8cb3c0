import { useGetDownloadQuery } from '../../features/downloads/api';
import { useListPaymentMethodsQuery, useListSubscriptionsQuery } from '../../features/billing/api';
import { DashboardView, type Loadable } from '../../features/dashboard/components/dashboard-view';
import { useGetSupportInfoQuery } from '../../features/support/api';

/** What a list read gives the dashboard: its items, or its loading and error state. */
function itemsOf<T>(result: { data?: { items: T[] } | undefined; isLoading: boolean; error?: unknown }): Loadable<T[]> {
  return { data: result.data?.items, isLoading: result.isLoading, error: result.error };
}

function one<T>(result: { data?: T | undefined; isLoading: boolean; error?: unknown }): Loadable<T> {
  return { data: result.data, isLoading: result.isLoading, error: result.error };
}

/**
 * /app/dashboard: the dashboard needs four other features' reads (subscriptions and cards, the
 * support plan, the latest ISO). Features do not import each other, so this page reads them and
 * hands them to the dashboard feature's view.
 */
export function DashboardPage() {
  const subscriptions = useListSubscriptionsQuery();
  const paymentMethods = useListPaymentMethodsQuery();
  const support = useGetSupportInfoQuery();
  const download = useGetDownloadQuery();
  return (
    <DashboardView
      subscriptions={itemsOf(subscriptions)}
      paymentMethods={itemsOf(paymentMethods)}
      support={one(support)}
      download={one(download)}
    />
  );
}
