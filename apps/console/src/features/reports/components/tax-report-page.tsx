import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import {
  consolePath,
  formatMoney,
  TAX_REPORT_MAX_DAYS,
  type TaxReport,
  type TaxReportRegime,
  type TaxReportTotal,
} from '@portal/contract';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useGetTaxReportQuery } from '../api';
import { ErrorDisplay } from '@portal/ui';

export const REGIME_LABELS: Record<TaxReportRegime, string> = {
  domestic: 'Domestic',
  eu_consumer: 'EU consumer (OSS)',
  reverse_charge: 'Reverse charge',
  export: 'Export',
  none: 'Not taxed (seller not registered)',
};

/** The calendar month before `now` (UTC), the period a monthly return covers. */
export function lastMonth(now = new Date()): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

const percent = (bp: number) => `${(bp / 100).toString()} %`;

/** The tax report of a period (owners and billing staff): what the books and the VAT return need. */
export default function TaxReportPage() {
  const [params, setParams] = useSearchParams();
  const fallback = lastMonth();
  const from = params.get('from') ?? fallback.from;
  const to = params.get('to') ?? fallback.to;
  const [draft, setDraft] = useState({ from, to });
  const { data, error, isFetching, refetch } = useGetTaxReportQuery({ from, to });
  const csv = `${consolePath('getTaxReport')}?${new URLSearchParams({ from, to, format: 'csv' }).toString()}`;

  const show = (e: FormEvent) => {
    e.preventDefault();
    setParams({ from: draft.from, to: draft.to });
  };

  return (
    <PageFrame
      title="Tax report"
      description="Tax collected by country and rate, reverse-charged sales and exports, less credit notes (built-in invoicing)"
      actions={
        <Button component="a" href={csv} download variant="default" leftSection={<IconDownload size={16} />}>
          Export CSV
        </Button>
      }
    >
      <Paper withBorder p="md" component="form" onSubmit={show} aria-label="Period">
        <Group align="flex-end" gap="md">
          <TextInput
            type="date"
            label="From"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
          />
          <Button type="submit" loading={isFetching}>
            Show
          </Button>
          <Text size="xs" c="dimmed">
            UTC dates, both included; at most {TAX_REPORT_MAX_DAYS} days.
          </Text>
        </Group>
      </Paper>
      {error ? <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} /> : null}
      {data ? <Report report={data} /> : null}
    </PageFrame>
  );
}

function Report({ report }: { report: TaxReport }) {
  if (report.rows.length === 0) {
    return (
      <Text c="dimmed">
        No invoices or credit notes from {report.from} to {report.to}.
      </Text>
    );
  }
  return (
    <Stack gap="lg">
      {report.totals.map((t) => (
        <Totals key={t.currency} total={t} />
      ))}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="sm">
          By regime, country and rate
        </Title>
        {/* The console's tables (ADR 108): fixed widths for the figures, each row a card on a phone. */}
        <Table.ScrollContainer minWidth={720} type="native">
          <Table
            verticalSpacing="sm"
            aria-label="Tax by regime, country and rate"
            className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards}`}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Regime</Table.Th>
                <Table.Th w={90}>Country</Table.Th>
                <Table.Th w={80} ta="right">
                  Rate
                </Table.Th>
                <Table.Th w={90} ta="right">
                  Invoices
                </Table.Th>
                <Table.Th w={170} ta="right">
                  Credit notes
                </Table.Th>
                <Table.Th w={130} ta="right">
                  Net
                </Table.Th>
                <Table.Th w={120} ta="right">
                  Tax
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.rows.map((r) => (
                <Table.Tr key={`${r.currency}-${r.regime}-${r.country ?? ''}-${r.rateBp}`}>
                  <Table.Td data-label="Regime">
                    <span className={tableClasses.truncate} title={REGIME_LABELS[r.regime]}>
                      {REGIME_LABELS[r.regime]}
                    </span>
                  </Table.Td>
                  <Table.Td data-label="Country">{r.country ?? '—'}</Table.Td>
                  <Table.Td ta="right" data-label="Rate">
                    {percent(r.rateBp)}
                  </Table.Td>
                  <Table.Td ta="right" data-label="Invoices">
                    {r.invoices}
                  </Table.Td>
                  <Table.Td ta="right" data-label="Credit notes">
                    {r.creditNotes > 0 ? `${r.creditNotes} (−${formatMoney(r.creditedNet + r.creditedTax, r.currency)})` : 0}
                  </Table.Td>
                  <Table.Td ta="right" data-label="Net">
                    {formatMoney(r.net, r.currency)}
                  </Table.Td>
                  <Table.Td ta="right" data-label="Tax">
                    {formatMoney(r.tax, r.currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}

function Totals({ total: t }: { total: TaxReportTotal }) {
  const tiles: Array<[string, number]> = [
    ['Tax collected', t.tax],
    ['Taxed sales (net)', t.taxedNet],
    ['Reverse charge (net)', t.reverseChargeNet],
    ['Exports (net)', t.exportNet],
    ['Not taxed (net)', t.untaxedNet],
    ['Total (gross)', t.gross],
  ];
  return (
    <section aria-label={`Totals in ${t.currency.toUpperCase()}`}>
      <Title order={2} size="h4" mb="sm">
        Totals in {t.currency.toUpperCase()}
      </Title>
      <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }}>
        {tiles.map(([label, amount]) => (
          <Paper key={label} withBorder p="sm">
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600}>{formatMoney(amount, t.currency)}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
