import { useEffect, useState } from 'react';
import { Grid, SimpleGrid, Stack } from '@mantine/core';
import { displayName } from '@portal/contract';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame';
import { ActionDialog, type PendingAction } from '../actions/action-dialog';
import { useGetCustomerQuery } from '../api';
import { customerFigures } from '../customer-figures';
import { ActivitySection } from './activity-section';
import { BillingDetailsCard } from './billing-details-card';
import { CustomerActions } from './customer-actions';
import { CustomerSkeleton } from './customer-skeleton';
import { CustomerSummary } from './customer-summary';
import { LicensesSection } from './licenses-section';
import { NodesSection } from './nodes-section';
import { ProfileCard } from './profile-card';
import { SignInsSection } from './sign-ins-section';
import { SubscriptionsSection } from './subscriptions-section';
import { ErrorDisplay, errorStatus } from '@portal/ui';

/** /customers/:userId: everything about one customer, and what staff can do about it. */
export default function CustomerPage() {
  const { userId = '' } = useParams();
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { data, error, isLoading, isFetching, refetch } = useGetCustomerQuery(userId);
  const [pending, setPending] = useState<PendingAction | null>(null);

  // A search result opens the section that holds the match (#licenses, #nodes, #subscriptions).
  useEffect(() => {
    if (data && hash) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [data, hash]);

  const back = { to: '/customers', label: 'Customers' };
  if (isLoading) return <CustomerSkeleton />;
  if (!data) {
    const missing = errorStatus(error) === 404;
    return (
      <PageFrame title={missing ? 'Customer not found' : 'Customer'} description="A customer of the portal." back={back}>
        <ErrorDisplay error={error} onRetry={missing ? undefined : refetch} retrying={isFetching} />
      </PageFrame>
    );
  }

  const { profile } = data;
  const name = displayName(profile);
  const act = (action: PendingAction) => setPending(action);
  return (
    <PageFrame
      title={name}
      documentTitle={`${name} (${profile.email})`}
      description={profile.company ? `${profile.email} · ${profile.company}` : profile.email}
      back={back}
      actions={<CustomerActions profile={profile} onAction={act} />}
    >
      <CustomerSummary customer={data} />
      {/* Two columns on wide screens; below, the compact profile cards come first, side by side. */}
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Stack gap="lg">
            <SubscriptionsSection subscriptions={data.subscriptions} onAction={act} />
            <LicensesSection licenses={data.licenses} onAction={act} />
            <NodesSection nodes={data.nodes} total={customerFigures(data).nodes} licenses={data.licenses} onAction={act} />
            <ActivitySection activity={data.activity} staffActions={data.staffActions} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }} order={{ base: -1, xl: 0 }}>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 1 }} spacing="lg">
            <ProfileCard customer={data} />
            <BillingDetailsCard userId={profile.id} details={data.billingDetails} />
            <SignInsSection signIns={data.signIns} />
          </SimpleGrid>
        </Grid.Col>
      </Grid>
      <ActionDialog
        action={pending}
        onClose={() => setPending(null)}
        onDone={(done) => {
          if (done.route === 'deleteCustomer') void navigate('/customers', { replace: true });
        }}
      />
    </PageFrame>
  );
}
