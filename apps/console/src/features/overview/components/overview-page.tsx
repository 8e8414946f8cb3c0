import { Anchor, Grid, Paper, SimpleGrid, Skeleton, Stack, type SimpleGridProps } from '@mantine/core';
import { Link } from 'react-router';
import {
  IconAlertTriangle,
  IconCalendarDollar,
  IconCash,
  IconClockExclamation,
  IconCreditCardOff,
  IconRepeat,
  IconServer,
  IconTrendingDown,
  IconTrendingUp,
} from '@tabler/icons-react';
import { plural, type Overview, formatMoney } from '@portal/contract';
import { PageFrame } from '../../../components/page-frame';
import { StatTile, StatTileSkeleton, type StatTileProps } from '../../../components/stat-tile';
import { useGetOverviewQuery } from '../api';
import { monthOverMonth } from '../overview-display';
import { OverviewCharts } from './overview-charts';
import { ErrorDisplay } from '@portal/ui';

const count = (n: number) => new Intl.NumberFormat().format(n);
/** '1 customer account', '1,204 customer accounts'. */
const counted = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

function trend(change: number | null): string {
  if (change === null) return 'No earlier month to compare';
  return `${change > 0 ? '+' : ''}${change.toFixed(1)}% on last month`;
}

/** The two rows of figures: what the business is (revenue, fleet), then what needs attention. */
const ROWS: ReadonlyArray<{ cols: SimpleGridProps['cols']; tiles: (o: Overview) => StatTileProps[] }> = [
  {
    cols: { base: 2, md: 4 },
    tiles: (o) => [
      {
        label: 'MRR',
        value: formatMoney(o.mrr, o.currency),
        hint: trend(monthOverMonth(o.months, 'mrr')),
        icon: <IconCash size={16} />,
      },
      { label: 'ARR', value: formatMoney(o.arr, o.currency), hint: 'MRR × 12', icon: <IconCalendarDollar size={16} /> },
      {
        label: 'Active subscriptions',
        value: count(o.activeSubscriptions),
        hint: `${count(o.pastDueSubscriptions)} past due; ${counted(o.customers, 'customer account', 'customer accounts')} in all`,
        icon: <IconRepeat size={16} />,
      },
      {
        label: 'Active nodes',
        value: count(o.activeNodes),
        hint: `on ${counted(o.activeLicenses, 'active license', 'active licenses')}`,
        icon: <IconServer size={16} />,
      },
    ],
  },
  {
    cols: { base: 2, sm: 3, lg: 5 },
    tiles: (o) => [
      { label: 'New subscriptions', value: count(o.newSubscriptions), hint: 'Last 30 days', icon: <IconTrendingUp size={16} /> },
      { label: 'Churned', value: count(o.churnedSubscriptions), hint: 'Last 30 days', icon: <IconTrendingDown size={16} /> },
      {
        label: 'Failed payments',
        value: count(o.failedPayments),
        hint: 'Last 30 days',
        icon: <IconAlertTriangle size={16} />,
        attention: o.failedPayments > 0,
      },
      {
        label: 'MRR at risk',
        value: formatMoney(o.mrrAtRisk, o.currency),
        hint: (
          <Anchor component={Link} to="/subscriptions?status=past_due" size="xs" inherit>
            {plural(o.subscriptionsAtRisk, 'subscription')} in grace, payment failing
          </Anchor>
        ),
        icon: <IconClockExclamation size={16} />,
        attention: o.subscriptionsAtRisk > 0,
      },
      {
        label: 'Cards expiring',
        value: count(o.cardsExpiringBeforeRenewal),
        hint: 'Before their next renewal',
        icon: <IconCreditCardOff size={16} />,
        attention: o.cardsExpiringBeforeRenewal > 0,
      },
    ],
  },
];
const TILES_PER_ROW = [4, 5];

/** /overview: revenue, subscriptions and the fleet now, and their last 12 months. */
export default function OverviewPage() {
  const { data, error, isFetching, refetch } = useGetOverviewQuery();
  return (
    <PageFrame
      title="Overview"
      description="Revenue, subscriptions and nodes at a glance; counts of the last 30 days unless named. MRR counts every subscription that gives access (active or past due), those set to cancel at the period end included until they end; yearly ones divided by 12."
    >
      {error && !data ? <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} /> : null}
      {error && !data ? null : (
        <Stack gap="lg" aria-busy={!data} aria-label={data ? undefined : 'Loading the overview'}>
          {ROWS.map((row, r) => (
            <SimpleGrid key={r} cols={row.cols} spacing="md" className="console-tiles">
              {data
                ? row.tiles(data).map((tile) => <StatTile key={tile.label} {...tile} />)
                : Array.from({ length: TILES_PER_ROW[r] ?? 4 }, (_, i) => <StatTileSkeleton key={i} />)}
            </SimpleGrid>
          ))}
          {data ? <OverviewCharts overview={data} /> : <ChartsSkeleton />}
        </Stack>
      )}
    </PageFrame>
  );
}

function ChartsSkeleton() {
  return (
    <Grid gap="lg" aria-hidden>
      {[7, 5].map((span) => (
        <Grid.Col key={span} span={{ base: 12, lg: span }}>
          <Paper withBorder p="lg">
            <Stack gap="md">
              <Skeleton height={16} width={200} />
              <Skeleton height={260} />
            </Stack>
          </Paper>
        </Grid.Col>
      ))}
    </Grid>
  );
}
