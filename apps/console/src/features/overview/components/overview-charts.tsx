import { AreaChart, BarChart } from '@mantine/charts';
import { Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { type Overview, formatMoney } from '@portal/contract';
import { chartRows, compactMoney, validationRows } from '../overview-display';

function ChartCard({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
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
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <ChartCard
          title="Monthly recurring revenue"
          description="The subscriptions alive at the end of each month, at their current price; this month's point is the MRR above"
        >
          <AreaChart
            h={260}
            data={rows}
            dataKey="label"
            series={[{ name: 'mrr', label: 'MRR', color: 'brand.6' }]}
            curveType="monotone"
            gridAxis="y"
            valueFormatter={money}
            yAxisProps={{ tickFormatter: axisMoney, width: 64 }}
            withDots={false}
            fillOpacity={0.25}
            role="img"
            aria-label="Monthly recurring revenue over the last 12 months"
          />
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <ChartCard title="Revenue" description="Paid invoices in each month">
          <BarChart
            h={260}
            data={rows}
            dataKey="label"
            series={[{ name: 'revenue', label: 'Revenue', color: 'teal.6' }]}
            gridAxis="y"
            valueFormatter={money}
            yAxisProps={{ tickFormatter: axisMoney, width: 64 }}
            barProps={{ radius: [4, 4, 0, 0] }}
            role="img"
            aria-label="Revenue collected in each of the last 12 months"
          />
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={12}>
        <ChartCard
          title="New and churned subscriptions"
          description="Subscriptions started and ended in each month, side by side (a subscription ends at its period end, or when cancelled now)"
        >
          <BarChart
            h={240}
            data={rows}
            dataKey="label"
            series={[
              { name: 'new', label: 'New', color: 'brand.5' },
              { name: 'churned', label: 'Churned', color: 'red.6' },
            ]}
            valueFormatter={count}
            yAxisProps={{ allowDecimals: false }}
            gridAxis="y"
            withLegend
            legendProps={{ verticalAlign: 'bottom', height: 40 }}
            role="img"
            aria-label="New and churned subscriptions in each of the last 12 months"
          />
        </ChartCard>
      </Grid.Col>
      <Grid.Col span={12}>
        <ChartCard
          title="Validations per day"
          description={`License checks answered by the portal, ${count(validations)} in the last 30 days; today's is a few seconds behind`}
        >
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
            yAxisProps={{ tickFormatter: compactCount, allowDecimals: false, width: 56 }}
            gridAxis="y"
            withLegend
            legendProps={{ verticalAlign: 'bottom', height: 40 }}
            role="img"
            aria-label="License validations answered valid and refused in each of the last 30 days"
          />
        </ChartCard>
      </Grid.Col>
    </Grid>
  );
}
