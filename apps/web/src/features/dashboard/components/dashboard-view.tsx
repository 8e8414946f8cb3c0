import { useState } from 'react';
import { Group, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import type { DownloadInfo, LicenseSummary, PaymentMethod, Subscription, SupportInfo } from '@portal/contract';
import { ErrorDisplay, errorMessage } from '@portal/ui';
import { AttentionAlert } from '../../../components/attention-alert';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';
import { useGetLicenseSummaryQuery } from '../api';
import { dashboardWarnings, nextSteps } from '../dashboard-logic';
import type { Loadable } from './dashboard-card';
import { GetStarted } from './get-started';
import { DownloadCard, SupportCard } from './resource-cards';
import { LicensesCard, SubscriptionsCard } from './usage-renewal-cards';

export type { Loadable } from './dashboard-card';

export interface DashboardViewProps {
  subscriptions: Loadable<Subscription[]>;
  paymentMethods: Loadable<PaymentMethod[]>;
  support: Loadable<SupportInfo>;
  download: Loadable<DownloadInfo>;
}

/**
 * /app/dashboard (menu entry 'Home'): what needs attention, then nodes in use and the next renewal,
 * then the support plan and the latest ISO; a new customer sees the steps to a first node. The
 * license figures are this feature's own; the rest comes from the other features through the
 * composing page (src/app/dashboard).
 */
export function DashboardView({ subscriptions, paymentMethods, support, download }: DashboardViewProps) {
  const profile = useAppSelector((s) => s.user.profile);
  const summaryQuery = useGetLicenseSummaryQuery();
  const summary: Loadable<LicenseSummary> = {
    data: summaryQuery.data,
    isLoading: summaryQuery.isLoading,
    isFetching: summaryQuery.isFetching,
    error: summaryQuery.error,
    refetch: summaryQuery.refetch,
  };
  const [now] = useState(() => new Date());
  const name = profile?.fname.trim() || profile?.lname.trim();

  const warnings = subscriptions.data
    ? dashboardWarnings({ subscriptions: subscriptions.data, methods: paymentMethods.data, summary: summary.data, now })
    : [];
  const steps = nextSteps({ subscriptions: subscriptions.data, summary: summary.data, now });
  // What shows above the cards (warnings, the first steps) depends on the subscriptions and the
  // license figures: until both first answer, one skeleton holds the page, so nothing moves once
  // they arrive (no layout shift).
  const firstLoad = subscriptions.isLoading || summary.isLoading;
  // One failure (the network, the server down) is said once for the page, with one Retry, not
  // once per card; cards whose reads failed differently keep their own error display.
  const shared = sharedFailure([summary, subscriptions, support, download]);
  const shown = (read: Loadable<unknown>) => !shared?.reads.includes(read);

  return (
    <PageFrame
      page={PAGES.home.title}
      title={name ? `Welcome, ${name}` : 'Welcome'}
      description="Your licenses, subscription, support and downloads at a glance."
    >
      {firstLoad ? <DashboardSkeleton /> : null}

      {!firstLoad && shared ? (
        <ErrorDisplay
          error={shared.error}
          onRetry={() => shared.reads.forEach((r) => r.refetch?.())}
          retrying={shared.reads.some((r) => r.isFetching)}
        />
      ) : null}

      {!firstLoad && warnings.length > 0 ? (
        <Stack gap="sm" component="section" aria-label="Needs your attention">
          {warnings.map((w) => (
            <AttentionAlert key={w.id} attention={w} />
          ))}
        </Stack>
      ) : null}

      {!firstLoad && steps ? <GetStarted steps={steps} /> : null}

      {firstLoad ? null : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {shown(summary) ? <LicensesCard summary={summary} /> : null}
          {shown(subscriptions) ? (
            <SubscriptionsCard
              subscriptions={subscriptions}
              now={now}
              offerPlan={!steps}
              suspendedLicenses={summary.data?.suspended ?? []}
            />
          ) : null}
          {shown(support) ? <SupportCard support={support} /> : null}
          {shown(download) ? <DownloadCard download={download} /> : null}
        </SimpleGrid>
      )}
    </PageFrame>
  );
}

/** The reads that failed with one same message, when more than one did; null otherwise. */
export function sharedFailure(reads: Loadable<unknown>[]): { error: unknown; reads: Loadable<unknown>[] } | null {
  const failed = reads.filter((r) => r.data === undefined && !r.isLoading && r.error !== undefined && r.error !== null);
  for (const first of failed) {
    const same = failed.filter((r) => errorMessage(r.error) === errorMessage(first.error));
    if (same.length > 1) return { error: first.error, reads: same };
  }
  return null;
}

/** The page's shape while its first reads are under way: a grid of four cards. */
function DashboardSkeleton() {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" aria-busy="true" aria-label="Loading the dashboard">
      {[0, 1, 2, 3].map((i) => (
        <Paper key={i} withBorder radius="lg" p="lg">
          <Stack gap="sm">
            <Group gap="sm">
              <Skeleton height={32} width={32} radius="md" />
              <Skeleton height={14} width="35%" />
            </Group>
            <Skeleton height={28} width="40%" />
            <Skeleton height={12} width="80%" />
            <Skeleton height={8} />
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
