import { useGetDownloadQuery } from '../../features/downloads/api';
import { useListPaymentMethodsQuery, useListSubscriptionsQuery } from '../../features/billing/api';
import { DashboardView, type Loadable } from '../../features/dashboard/components/dashboard-view';
import { useGetSupportInfoQuery } from '../../features/support/api';

interface Read<T> {
  data?: T | undefined;
  isLoading: boolean;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/** What a list read gives the dashboard: its items, or its loading and error state (and a way to retry). */
function itemsOf<T>(result: Read<{ items: T[] }>): Loadable<T[]> {
  return { ...one(result), data: result.data?.items };
}

function one<T>(result: Read<T>): Loadable<T> {
  const { data, isLoading, isFetching, error, refetch } = result;
  return { data, isLoading, isFetching, error, refetch };
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
