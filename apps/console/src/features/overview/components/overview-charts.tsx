import { AreaChart, BarChart } from '@mantine/charts';
import type { ReactNode } from 'react';
import { Box, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { type Overview, formatMoney } from '@portal/contract';
import { chartRows, compactMoney, tickInterval, validationRows } from '../overview-display';

/** About how wide a month's ('Sep') or a day's ('Nov 30') axis label is, with room around it. */
const MONTH_LABEL_PX = 44;
const DAY_LABEL_PX = 60;
/** The width of the value axis beside the plot. */
const Y_AXIS_PX = 64;

/** A chart given its own width: its axis labels are spaced for it (tickInterval). */
function Measured({ children }: { children: (plotWidth: number) => ReactNode }) {
  const { ref, width } = useElementSize();
  return <Box ref={ref}>{children(Math.max(0, width - Y_AXIS_PX))}</Box>;
}

function ChartCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} h="100%">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h5">
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

const count = (n: number) => new Intl.NumberFormat().format(n);
const compactCount = (n: number) => new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(n);

/** The last 12 months: MRR, revenue collected, and subscriptions won and lost; validations of the last 30 days. */
export function OverviewCharts({ overview }: { overview: Overview }) {
  const rows = chartRows(overview.months);
  const days = validationRows(overview.days);
  const validations = overview.days.reduce((s, d) => s + d.validations, 0);
  const money = (major: number) => formatMoney(Math.round(major * 100), overview.currency);
  const axisMoney = (major: number) => compactMoney(Math.round(major * 100), overview.currency);
  // The axis names the month alone ('Mar'); the tooltip, with the year ('Mar 2026').
  const tickOf = new Map(rows.map((r) => [r.label, r.tick]));
  const monthAxis = { tickFormatter: (label: string) => tickOf.get(label) ?? label };
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <ChartCard
          title="Monthly recurring revenue"
          description="The subscriptions alive at the end of each month, at their current price; this month's point is the MRR above"
        >
          <Measured>
            {(width) => (
              <AreaChart
                h={260}
                data={rows}
                dataKey="label"
                series={[{ name: 'mrr', label: 'MRR', color: 'brand.6' }]}
                curveType="monotone"
                gridAxis="y"
                valueFormatter={money}
                xAxisProps={{ ...monthAxis, interval: tickInterval(rows.length, width, MONTH_LABEL_PX) }}
                yAxisProps={{ tickFormatter: axisMoney, width: Y_AXIS_PX }}
                withDots={false}
                fillOpacity={0.25}
                role="img"
                aria-label="Monthly recurring revenue over the last 12 months"
              />
            )}
          </Measured>
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <ChartCard title="Revenue" description="Paid invoices in each month">
          <Measured>
            {(width) => (
              <BarChart
                h={260}
                data={rows}
                dataKey="label"
                series={[{ name: 'revenue', label: 'Revenue', color: 'teal.6' }]}
                gridAxis="y"
                valueFormatter={money}
                xAxisProps={{ ...monthAxis, interval: tickInterval(rows.length, width, MONTH_LABEL_PX) }}
                yAxisProps={{ tickFormatter: axisMoney, width: Y_AXIS_PX }}
                barProps={{ radius: [4, 4, 0, 0] }}
                role="img"
                aria-label="Revenue collected in each of the last 12 months"
              />
            )}
          </Measured>
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={12}>
        <ChartCard
          title="New and churned subscriptions"
          description="Subscriptions started and ended in each month, side by side (a subscription ends at its period end, or when cancelled now)"
        >
          <Measured>
            {(width) => (
              <BarChart
                h={240}
                data={rows}
                dataKey="label"
                // Side by side (the default type), never one drawn over the other.
                type="default"
                series={[
                  { name: 'new', label: 'New', color: 'brand.5' },
                  { name: 'churned', label: 'Churned', color: 'red.6' },
                ]}
                valueFormatter={count}
                xAxisProps={{ ...monthAxis, interval: tickInterval(rows.length, width, MONTH_LABEL_PX) }}
                yAxisProps={{ allowDecimals: false, width: Y_AXIS_PX }}
                gridAxis="y"
                withLegend
                legendProps={{ verticalAlign: 'bottom', height: 40 }}
                role="img"
                aria-label="New and churned subscriptions in each of the last 12 months"
              />
            )}
          </Measured>
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={12}>
        <ChartCard
          title="Validations per day"
          description={`License checks answered by the portal, ${count(validations)} in the last 30 days; today's is a few seconds behind`}
        >
          <Measured>
            {(width) => (
              <BarChart
                h={240}
                data={days}
                dataKey="label"
                type="stacked"
                series={[
                  { name: 'valid', label: 'Valid', color: 'teal.6' },
                  { name: 'refused', label: 'Refused', color: 'orange.6' },
                ]}
                valueFormatter={count}
                xAxisProps={{ interval: tickInterval(days.length, width, DAY_LABEL_PX) }}
                yAxisProps={{ tickFormatter: compactCount, allowDecimals: false, width: Y_AXIS_PX }}
                gridAxis="y"
                withLegend
                legendProps={{ verticalAlign: 'bottom', height: 40 }}
                role="img"
                aria-label="License validations answered valid and refused in each of the last 30 days"
              />
            )}
          </Measured>
        </ChartCard>
      </Grid.Col>
    </Grid>
  );
}
