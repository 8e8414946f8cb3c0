import { BillingPage as BillingView } from '../../features/billing/components/billing-page';
import { useGetLicenseSummaryQuery } from '../../features/dashboard/api';

/**
 * /app/billing: the billing feature's page, told which licenses staff suspended (the license
 * figures the dashboard reads), so a subscription whose license is suspended says so. Features do
 * not import each other, so this page reads the one and hands it to the other.
 */
export function BillingPage() {
  const summary = useGetLicenseSummaryQuery();
  // Until the figures answer, the page keeps its skeleton; a failed read hides no subscription.
  const suspended = summary.isLoading ? null : (summary.data?.suspended ?? []);
  return <BillingView suspendedLicenses={suspended} suspensionMessages={summary.data?.suspensionMessages} />;
}
