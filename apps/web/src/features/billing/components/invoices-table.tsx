import { useState } from 'react';
import { Anchor, Group, Pagination, ScrollArea, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconExternalLink } from '@tabler/icons-react';
import { type Invoice, formatDate, formatMoney, invoiceBadge } from '@portal/contract';
import { useListInvoicesQuery } from '../api';
import { useNarrow } from '../use-narrow';
import { ErrorDisplay, StatusBadge } from '@portal/ui';

/** Invoices per page under a subscription; the API answers them all, newest first. */
export const INVOICES_PER_PAGE = 10;

const num = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
/** A link alone in its cell is a tap target: at least 24 px high (WCAG 2.2), not the text's 20. */
const tapTarget = { display: 'inline-flex', alignItems: 'center', minHeight: 24 } as const;

/** 'View': the printable invoice page in a new tab. */
function ViewLink({ url, number }: { url: string | null; number: string }) {
  if (!url) {
    return (
      <Text size="sm" c="dimmed" component="span">
        –
      </Text>
    );
  }
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" style={tapTarget}>
      <Group gap={4} wrap="nowrap" component="span">
        View
        <VisuallyHidden> invoice {number} (opens in a new tab)</VisuallyHidden>
        <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

/** The built-in engine's invoices have a PDF beside their page (Stripe's page links its own). */
const pdfOf = (url: string | null) => (url?.startsWith('/api/billing/invoices/') ? `${url}/pdf` : null);

/** 'PDF': the invoice or credit note as a PDF download. */
function PdfLink({ href, label }: { href: string; label: string }) {
  return (
    <Anchor href={href} download size="sm" style={tapTarget}>
      <Group gap={4} wrap="nowrap" component="span">
        <IconDownload size={14} aria-hidden />
        PDF
        <VisuallyHidden> of {label}</VisuallyHidden>
      </Group>
    </Anchor>
  );
}

/** The invoice's documents: its page, its PDF. */
function Documents({ inv }: { inv: Invoice }) {
  const pdf = pdfOf(inv.url);
  return (
    <Group gap="sm" wrap="nowrap" justify="flex-end">
      <ViewLink url={inv.url} number={inv.number} />
      {pdf ? <PdfLink href={pdf} label={`invoice ${inv.number}`} /> : null}
    </Group>
  );
}

/** The credit notes correcting an invoice (refunds, credits), each with its PDF. */
function CreditNotes({ inv }: { inv: Invoice }) {
  if (!inv.creditNotes?.length) return null;
  return (
    <Stack gap={2} mt={4}>
      {inv.creditNotes.map((n) => (
        <Group key={n.id} gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Credit note <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{n.number}</span>,{' '}
            {formatMoney(n.amount, inv.currency)}
          </Text>
          <PdfLink href={n.url} label={`credit note ${n.number}`} />
        </Group>
      ))}
    </Stack>
  );
}

/** A subscription's invoices: number, date, period, amount, status and a link to the printable page. */
export function InvoicesTable({ subscriptionId }: { subscriptionId: string }) {
  const { data, error, isLoading, refetch, isFetching } = useListInvoicesQuery(subscriptionId);
  const narrow = useNarrow('sm');
  const [page, setPage] = useState(1);
  const items = data?.items ?? [];
  const pages = Math.max(1, Math.ceil(items.length / INVOICES_PER_PAGE));
  const shown = items.slice((page - 1) * INVOICES_PER_PAGE, page * INVOICES_PER_PAGE);

  if (error) return <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />;
  const pager =
    pages > 1 ? (
      <Group justify="flex-end">
        <Pagination total={pages} value={page} onChange={setPage} size="md" aria-label="Invoice pages" />
      </Group>
    ) : null;

  if (narrow) {
    // Phones: one compact row per invoice instead of a table that scrolls sideways.
    return (
      <Stack gap="sm">
        <Stack gap={0} role="list" aria-label="Invoices" aria-busy={isLoading || undefined}>
          {isLoading
            ? [0, 1].map((i) => <Skeleton key={i} height={44} my={4} />)
            : shown.map((inv, i) => {
                const badge = invoiceBadge(inv.status);
                return (
                  <Group
                    key={inv.id}
                    role="listitem"
                    justify="space-between"
                    wrap="nowrap"
                    gap="sm"
                    py="xs"
                    style={i === 0 ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }}
                  >
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Text ff="monospace" size="sm">
                        {inv.number}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDate(inv.created)}
                      </Text>
                      <CreditNotes inv={inv} />
                    </Stack>
                    <Stack gap={4} align="flex-end">
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" fw={500} style={num}>
                          {formatMoney(inv.amountDue, inv.currency)}
                        </Text>
                        <StatusBadge size="sm" tone={badge.tone}>
                          {badge.label}
                        </StatusBadge>
                      </Group>
                      <Documents inv={inv} />
                    </Stack>
                  </Group>
                );
              })}
        </Stack>
        {pager}
      </Stack>
    );
  }

  if (!isLoading && items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No invoices yet. Each charge adds one here, ready to print.
      </Text>
    );
  }

  return (
    <Stack gap="sm">
      <ScrollArea type="auto" offsetScrollbars="x">
        <Table miw={600} verticalSpacing="xs" highlightOnHover aria-label="Invoices" aria-busy={isLoading || undefined}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Invoice</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Period</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Document</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {isLoading
              ? [0, 1, 2].map((i) => (
                  <Table.Tr key={i}>
                    {[90, 80, 140, 60, 50, 40].map((w, j) => (
                      <Table.Td key={j}>
                        <Skeleton height={12} width={w} ml={j === 3 ? 'auto' : undefined} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : shown.map((inv) => {
                  const badge = invoiceBadge(inv.status);
                  return (
                    <Table.Tr key={inv.id}>
                      <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                        <Text ff="monospace" fz="sm" component="span">
                          {inv.number}
                        </Text>
                        <CreditNotes inv={inv} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(inv.created)}</Table.Td>
                      <Table.Td c="dimmed" fz="sm" style={{ whiteSpace: 'nowrap' }}>
                        {formatDate(inv.periodStart)} – {formatDate(inv.periodEnd)}
                      </Table.Td>
                      <Table.Td ta="right" style={num}>
                        {formatMoney(inv.amountDue, inv.currency)}
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge size="sm" tone={badge.tone}>
                          {badge.label}
                        </StatusBadge>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Documents inv={inv} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pager}
    </Stack>
  );
}
