import { Divider, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { type CheckoutPreview, type Interval, type Price, formatDate, intervalLabel } from '@portal/contract';
import { addInterval, periodTotal } from '../billing-display';
import { TaxRows } from './charge-preview';
import classes from './billing.module.css';

export interface CheckoutPriceSummaryProps {
  price: Price;
  interval: Interval;
  /** The number of nodes, null while the field holds no valid number. */
  n: number | null;
  /** What yearly billing saves on `n` nodes (or one). */
  saving: { amount: number; percent: number } | null;
  money: (amount: number) => string;
  /** The seller charges VAT: the preview (once the buyer's country is known) shows it. */
  taxed: boolean;
  preview: CheckoutPreview | undefined;
}

/** The checkout's price: nodes × unit price, what yearly saves, the tax when VAT applies, the total per period. */
export function CheckoutPriceSummary({ price, interval, n, saving, money, taxed, preview }: CheckoutPriceSummaryProps) {
  return (
    <Paper radius="md" p="md" bg="var(--mantine-color-default-hover)" role="group" aria-label="Price">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" c="dimmed">
            {n ?? '–'} × {money(interval === 'month' ? price.monthUnitAmount : price.yearUnitAmount)} per node
          </Text>
          <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {n ? money(periodTotal(price, interval, n)) : '–'}
          </Text>
        </Group>
        {interval === 'year' && n && saving && saving.amount > 0 ? (
          <Text size="sm" className={classes.saving} fw={500}>
            You save {money(saving.amount)} a year compared with monthly billing.
          </Text>
        ) : null}
        {interval === 'month' && n && saving && saving.amount > 0 ? (
          <Text size="sm" c="dimmed">
            Pay yearly to save {money(saving.amount)} a year.
          </Text>
        ) : null}
        {taxed && preview && n ? (
          <Table fz="sm" verticalSpacing={2} horizontalSpacing={0} withRowBorders={false} aria-label="Tax">
            <Table.Tbody>
              <TaxRows money={money} subtotal={preview.subtotal} taxLines={preview.taxLines} total={preview.total} />
            </Table.Tbody>
          </Table>
        ) : null}
        {taxed && preview?.taxNote ? (
          <Text size="xs" c="dimmed">
            {preview.taxNote}
          </Text>
        ) : null}
        <Divider my={4} />
        <Group justify="space-between" align="baseline" wrap="nowrap" gap="sm">
          <Text fw={600}>Total per {interval}</Text>
          <Text fw={700} size="xl" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {n ? money(taxed && preview ? preview.total : periodTotal(price, interval, n)) : '–'}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          Charged today, then {intervalLabel(interval)} from {formatDate(addInterval(new Date(), interval))} until you cancel.{' '}
          {taxed
            ? preview
              ? 'VAT as shown, from your billing details.'
              : 'VAT is added according to your billing country.'
            : 'Prices exclude any taxes that apply.'}
        </Text>
      </Stack>
    </Paper>
  );
}
