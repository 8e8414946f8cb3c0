import { Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { type ConsoleCustomerRow, formatDate } from '@portal/contract';
import { CustomerLink } from '../../../components/customer-link';
import type { Column } from '../../../components/data-table';
import { ListPage } from '../../../components/list-page';
import { useListCustomersQuery } from '../api';

const figure = (n: number) => <span className="console-figure">{n}</span>;

const COLUMNS: ReadonlyArray<Column<ConsoleCustomerRow>> = [
  {
    key: 'name',
    header: 'Customer',
    sort: 'name',
    cell: (r) => <CustomerLink userId={r.id}>{r.name || 'No name'}</CustomerLink>,
    text: (r) => r.name || null,
    skeleton: 140,
  },
  { key: 'email', header: 'E-mail', sort: 'email', cell: (r) => r.email, text: (r) => r.email, skeleton: 180 },
  {
    key: 'company',
    header: 'Company',
    cell: (r) =>
      r.company ?? (
        <Text span c="dimmed" size="sm">
          —
        </Text>
      ),
    text: (r) => r.company,
    skeleton: 100,
  },
  {
    key: 'subs',
    header: 'Active subscriptions',
    align: 'right',
    cell: (r) => figure(r.activeSubscriptions),
    skeleton: 30,
    width: 180,
  },
  { key: 'licenses', header: 'Licenses', align: 'right', cell: (r) => figure(r.licenses), skeleton: 30, width: 100 },
  {
    key: 'created',
    header: 'Signed up',
    sort: 'createdAt',
    cell: (r) => formatDate(r.createdAt),
    skeleton: 90,
    width: 140,
  },
];

/** /customers: every customer, filtered by e-mail, name or company. */
export default function CustomersPage() {
  return (
    <ListPage
      title="Customers"
      description="Everyone with an account in the portal. Open one for their subscriptions, licenses and nodes."
      route="listCustomers"
      useRows={useListCustomersQuery}
      filterPlaceholder="Filter by e-mail, name or company"
      columns={COLUMNS}
      rowKey={(r) => r.id}
      noun={['customer', 'customers']}
      empty={{
        icon: <IconUsers />,
        title: 'No customers found',
        description: 'No customer matches these filters. Clear the filter, or search from the top bar.',
      }}
    />
  );
}
