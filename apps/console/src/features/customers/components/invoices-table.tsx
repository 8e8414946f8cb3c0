import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { IconReceiptRefund, IconWallet } from '@tabler/icons-react';
import { consolePath, type Invoice, invoiceBadge, formatDate, formatMoney } from '@portal/contract';
import { RowMenu } from '../../../components/row-menu';
import { useMay } from '../../../lib/permissions';
import type { PendingAction } from '../actions/action-dialog';
import { SectionTable } from './customer-section';
import { StatusBadge } from '@portal/ui';

/** Invoices with money left to refund (a partly refunded one answers how much when asked for more). */
const REFUNDABLE = new Set(['paid', 'partially_refunded']);

/** A subscription's invoices, newest first: number, date, period, amount, status; refunds and credits for billing staff. */
export function InvoicesTable({ invoices, onAction }: { invoices: Invoice[]; onAction: (a: PendingAction) => void }) {
  const mayRefund = useMay('refundInvoice');
  const mayCredit = useMay('creditInvoice');
  if (invoices.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No invoices yet.
      </Text>
    );
  }
  return (
    <SectionTable
      headers={[
        'Invoice',
        { label: 'Date', width: 120 },
        { label: 'Period', width: 210 },
        { label: 'Amount', align: 'right', width: 110 },
        { label: 'Status', width: 140 },
      ]}
      minWidth={560}
    >
      {invoices.map((i) => {
        const badge = invoiceBadge(i.status);
        const refundable = REFUNDABLE.has(i.status) && i.amountPaid > 0;
        const target = { params: { invoiceId: i.id }, subject: i.number, paid: { amount: i.amountPaid, currency: i.currency } };
        return (
          <Table.Tr key={i.id}>
            <Table.Td ff="monospace" data-label="Invoice">
              <Group gap="xs" wrap="nowrap">
                {i.url ? (
                  <Anchor href={i.url} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace">
                    {i.number}
                  </Anchor>
                ) : (
                  i.number
                )}
                {i.url?.startsWith('/api/billing/invoices/') ? (
                  <Anchor
                    href={consolePath('downloadInvoicePdf', { invoiceId: i.id })}
                    download
                    size="xs"
                    aria-label={`PDF of invoice ${i.number}`}
                  >
                    PDF
                  </Anchor>
                ) : null}
              </Group>
              {i.creditNotes?.length ? (
                <Stack gap={0} mt={2}>
                  {i.creditNotes.map((n) => (
                    <Text key={n.id} size="xs" c="dimmed" ff="monospace">
                      {n.number} ({n.kind === 'refund' ? 'refund' : 'credit'} {formatMoney(n.amount, i.currency)})
                    </Text>
                  ))}
                </Stack>
              ) : null}
            </Table.Td>
            <Table.Td data-label="Date">{formatDate(i.created)}</Table.Td>
            <Table.Td c="dimmed" data-label="Period">
              {formatDate(i.periodStart)} – {formatDate(i.periodEnd)}
            </Table.Td>
            <Table.Td ta="right" className="console-figure" data-label="Amount">
              {formatMoney(i.amountDue, i.currency)}
            </Table.Td>
            <Table.Td data-label="Status">
              <StatusBadge tone={badge.tone} size="sm">
                {badge.label}
              </StatusBadge>
            </Table.Td>
            <Table.Td data-menu>
              <RowMenu
                label={`Actions for invoice ${i.number}`}
                items={[
                  {
                    label: 'Refund…',
                    icon: <IconReceiptRefund size={16} />,
                    hidden: !mayRefund || !refundable,
                    danger: true,
                    onClick: () => onAction({ route: 'refundInvoice', ...target }),
                  },
                  {
                    label: 'Credit to balance…',
                    icon: <IconWallet size={16} />,
                    hidden: !mayCredit || !refundable,
                    onClick: () => onAction({ route: 'creditInvoice', ...target }),
                  },
                ]}
              />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </SectionTable>
  );
}
