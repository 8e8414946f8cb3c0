import { IconFileInvoice } from '@tabler/icons-react';
import { type ConsoleInvoiceRow, invoiceBadge, formatDate, formatMoney } from '@portal/contract';
import { CustomerLink } from '../../../components/customer-link';
import type { Column } from '../../../components/data-table';
import { ListPage, type ListFilter } from '../../../components/list-page';
import { useListInvoicesQuery } from '../api';
import { StatusBadge } from '@portal/ui';

const money = (amount: number, currency: string) => <span className="console-figure">{formatMoney(amount, currency)}</span>;

const COLUMNS: ReadonlyArray<Column<ConsoleInvoiceRow>> = [
  {
    key: 'number',
    header: 'Invoice',
    cell: (r) => <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{r.number}</span>,
    text: (r) => r.number,
    skeleton: 110,
    width: 160,
  },
  {
    key: 'customer',
    header: 'Customer',
    cell: (r) => <CustomerLink userId={r.userId}>{r.email}</CustomerLink>,
    text: (r) => r.email,
    skeleton: 170,
  },
  {
    key: 'status',
    header: 'Status',
    cell: (r) => {
      const b = invoiceBadge(r.status);
      return (
        <StatusBadge tone={b.tone} size="sm">
          {b.label}
        </StatusBadge>
      );
    },
    skeleton: 60,
    width: 130,
  },
  {
    key: 'due',
    header: 'Amount',
    sort: 'amount',
    align: 'right',
    cell: (r) => money(r.amountDue, r.currency),
    skeleton: 70,
    width: 130,
  },
  { key: 'paid', header: 'Paid', align: 'right', cell: (r) => money(r.amountPaid, r.currency), skeleton: 70, width: 120 },
  { key: 'created', header: 'Date', sort: 'created', cell: (r) => formatDate(r.created), skeleton: 90, width: 130 },
];

const FILTERS: readonly ListFilter[] = [
  {
    name: 'status',
    label: 'Status',
    options: [
      { value: 'paid', label: 'Paid' },
      { value: 'open', label: 'Unpaid' },
      { value: 'uncollectible', label: 'Uncollectible' },
      { value: 'void', label: 'Void' },
      { value: 'draft', label: 'Draft' },
    ],
  },
];

/** /invoices: every invoice the portal issued, by status. */
export default function InvoicesPage() {
  return (
    <ListPage
      title="Invoices"
      description="Every invoice with what it asked and what was paid; filter the unpaid and uncollectible ones to chase."
      route="listInvoices"
      useRows={useListInvoicesQuery}
      filterPlaceholder="Filter by number or e-mail"
      filters={FILTERS}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      noun={['invoice', 'invoices']}
      empty={{
        icon: <IconFileInvoice />,
        title: 'No invoices found',
        description: 'No invoice matches these filters. Clear the filter to see every invoice.',
      }}
    />
  );
}
