import { Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { type ConsoleLicenseRow } from '@portal/contract';
import { CustomerLink } from '../../../components/customer-link';
import classes from '../../../components/data-table.module.css';
import type { Column } from '../../../components/data-table';
import { ListPage, type ListFilter } from '../../../components/list-page';
import { useListLicensesQuery } from '../api';
import { ExpiryText, LicenseKeyText, NodesUsage, LicenseStatusBadge as StatusBadge } from '@portal/ui';

const COLUMNS: ReadonlyArray<Column<ConsoleLicenseRow>> = [
  {
    key: 'key',
    header: 'License key',
    cell: (r) => <LicenseKeyText licenseKey={r.licenseKey} />,
    skeleton: 220,
    width: 310,
  },
  {
    key: 'customer',
    header: 'Customer',
    // Where the license comes from under its customer: a column of its own left the e-mail too little room.
    cell: (r) => (
      <Stack gap={0}>
        <span className={classes.truncate} title={r.email ?? undefined}>
          <CustomerLink userId={r.userId}>{r.email}</CustomerLink>
        </span>
        <Text span size="xs" c="dimmed">
          {r.subscriptionId ? 'Subscription' : 'Complimentary'}
        </Text>
      </Stack>
    ),
    skeleton: 160,
  },
  { key: 'status', header: 'Status', cell: (r) => <StatusBadge status={r.status} />, skeleton: 60, width: 110 },
  {
    key: 'nodes',
    header: 'Nodes',
    sort: 'activeNodes',
    align: 'right',
    cell: (r) => <NodesUsage activeNodes={r.activeNodes} maxNodes={r.maxNodes} />,
    skeleton: 80,
    width: 150,
  },
  {
    key: 'expires',
    header: 'Valid until',
    sort: 'expiresAt',
    cell: (r) => <ExpiryText license={{ ...r, stripeId: r.subscriptionId }} underHeader />,
    skeleton: 100,
    width: 170,
  },
];

const FILTERS: readonly ListFilter[] = [
  {
    name: 'status',
    label: 'Status',
    options: [
      { value: 'active', label: 'Active' },
      { value: 'suspended', label: 'Suspended' },
      { value: 'expired', label: 'Expired' },
    ],
  },
  {
    name: 'expiringWithinDays',
    label: 'Expiring',
    options: [
      { value: '7', label: 'within 7 days' },
      { value: '30', label: 'within 30 days' },
      { value: '90', label: 'within 90 days' },
    ],
  },
  {
    name: 'complimentary',
    label: 'Source',
    options: [
      { value: 'false', label: 'Subscription' },
      { value: 'true', label: 'Complimentary' },
    ],
  },
];

/** /licenses: every license, by status, expiry and where it comes from. */
export default function LicensesPage() {
  return (
    <ListPage
      title="Licenses"
      description="Every license key with its node usage and expiry; find those about to expire."
      route="listLicenses"
      useRows={useListLicensesQuery}
      filterPlaceholder="Filter by key or e-mail"
      filters={FILTERS}
      columns={COLUMNS}
      rowKey={(r) => r.licenseKey}
      noun={['license', 'licenses']}
      empty={{
        icon: <IconKey />,
        title: 'No licenses found',
        description: 'No license matches these filters. Clear a filter to see more.',
      }}
    />
  );
}
