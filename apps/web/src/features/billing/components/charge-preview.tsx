import { skipToken } from '@reduxjs/toolkit/query/react';
import { Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { type PreviewChangeBody, type TaxLine, formatDate, formatMoney } from '@portal/contract';
import { usePreviewChangeQuery } from '../api';
import { useSubmitErrorMessage } from './subscription-change-form';
import { ErrorDisplay, errorMessage } from '@portal/ui';

export interface ChargePreviewProps {
  subscriptionId: string;
  /** The change to price; nothing is asked while it is null (an invalid or unchanged value). */
  change: PreviewChangeBody | null;
  /** Shown instead while there is no change to price. */
  placeholder?: string;
}

const NUM = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** Net, tax per rate and total rows of a price table (a seller that charges VAT). */
export function TaxRows({
  money,
  subtotal,
  taxLines,
  total,
}: {
  money: (n: number) => string;
  subtotal: number;
  taxLines: TaxLine[];
  total: number;
}) {
  return (
    <>
      <Table.Tr>
        <Table.Td c="dimmed" pr="sm">
          Net
        </Table.Td>
        <Table.Td ta="right" c="dimmed" style={NUM}>
          {money(subtotal)}
        </Table.Td>
      </Table.Tr>
      {taxLines.map((t) => (
        <Table.Tr key={t.rateBp}>
          <Table.Td c="dimmed" pr="sm">
            VAT {taxRateLabel(t.rateBp)}
          </Table.Td>
          <Table.Td ta="right" c="dimmed" style={NUM}>
            {money(t.tax)}
          </Table.Td>
        </Table.Tr>
      ))}
      <Table.Tr>
        <Table.Td c="dimmed" pr="sm">
          Total
        </Table.Td>
        <Table.Td ta="right" c="dimmed" style={NUM}>
          {money(total)}
        </Table.Td>
      </Table.Tr>
    </>
  );
}

/** 1900 → "19%", 2550 → "25.5%" in the reader's locale. */
export const taxRateLabel = (bp: number) =>
  new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10000);

/**
 * The exact amount a change charges now and the next renewal, from the server's preview (the
 * same arithmetic as the change itself), shown before the customer confirms.
 */
export function ChargePreview({ subscriptionId, change, placeholder }: ChargePreviewProps) {
  const { data, error, isFetching } = usePreviewChangeQuery(change ? { subscriptionId, change } : skipToken);
  const submitError = useSubmitErrorMessage();

  if (change === null) {
    return placeholder ? (
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)">
        <Text size="sm" c="dimmed">
          {placeholder}
        </Text>
      </Paper>
    ) : null;
  }
  if (error && !isFetching) {
    // The same refusal from the change itself is shown beside Submit: once is enough.
    return submitError !== null && errorMessage(error) === submitError ? null : <ErrorDisplay error={error} />;
  }
  if (!data || isFetching) {
    return (
      <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Calculating the charge">
        <Stack gap="xs">
          <Skeleton height={14} width="45%" />
          <Skeleton height={22} width="30%" />
          <Skeleton height={12} width="70%" />
        </Stack>
      </Paper>
    );
  }

  const money = (n: number) => formatMoney(n, data.currency);
  return (
    <Paper withBorder radius="md" p="md" aria-label="Charge preview" role="group">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" wrap="nowrap" gap="md">
          <Text size="sm" fw={500}>
            Charged now
          </Text>
          <Text fw={700} size="xl" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {money(data.amountDue)}
          </Text>
        </Group>
        <Group justify="space-between" align="baseline" wrap="nowrap" gap="md">
          <Text size="sm" c="dimmed">
            Next renewal on {formatDate(data.nextRenewalAt)}
          </Text>
          <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {money(data.nextRenewalAmount)}
          </Text>
        </Group>
        {data.lines.length > 0 ? (
          <Table
            fz="xs"
            verticalSpacing={4}
            horizontalSpacing={0}
            withRowBorders={false}
            aria-label="How the charge is calculated"
          >
            <Table.Tbody>
              {data.lines.map((line, i) => (
                <Table.Tr key={i}>
                  <Table.Td c="dimmed" pr="sm">
                    {line.description}
                  </Table.Td>
                  <Table.Td ta="right" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {money(line.amount)}
                  </Table.Td>
                </Table.Tr>
              ))}
              {data.tax !== undefined && data.total !== undefined ? (
                <TaxRows money={money} subtotal={data.subtotal} taxLines={data.taxLines ?? []} total={data.total} />
              ) : null}
              {data.creditApplied > 0 ? (
                <Table.Tr>
                  <Table.Td c="dimmed" pr="sm">
                    Account credit applied
                  </Table.Td>
                  <Table.Td ta="right" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {money(-data.creditApplied)}
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        ) : null}
        {data.taxNote ? (
          <Text size="xs" c="dimmed">
            {data.taxNote}
          </Text>
        ) : null}
        {data.subtotal < 0 ? (
          <Text size="xs" c="dimmed">
            The unused time of {money(-data.subtotal)} is kept as credit for your next invoices.
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
