import { Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { type StaffAuditEntry, formatDateTime } from '@portal/contract';
import type { Column } from '../../../components/data-table';
import { ListPage } from '../../../components/list-page';
import { actionLabel } from '../../../lib/audit-labels';
import { CustomerLink } from '../../../components/customer-link';
import classes from '../../../components/data-table.module.css';
import { useListStaffAuditQuery } from '../api';

const COLUMNS: ReadonlyArray<Column<StaffAuditEntry>> = [
  {
    key: 'at',
    header: 'When',
    cell: (r) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(r.at)}
      </Text>
    ),
    skeleton: 120,
    width: 170,
  },
  { key: 'staff', header: 'Staff member', cell: (r) => r.staffEmail, text: (r) => r.staffEmail, skeleton: 150 },
  {
    key: 'action',
    header: 'Action',
    cell: (r) => (
      <Text size="sm" fw={500}>
        {actionLabel(r.action)}
        {r.subject ? (
          <Text span size="xs" c="dimmed" ff="monospace" display="block" truncate title={r.subject}>
            {r.subject}
          </Text>
        ) : null}
      </Text>
    ),
    skeleton: 140,
    width: 210,
  },
  {
    key: 'customer',
    header: 'Customer',
    // Named as on their page; the whole e-mail on hover. An action about no customer has none.
    cell: (r) =>
      r.userId ? (
        <span className={classes.truncate} title={r.customer?.email}>
          <CustomerLink userId={r.userId}>{r.customer ? (r.customer.name ?? r.customer.email) : null}</CustomerLink>
        </span>
      ) : (
        <Text span size="sm" c="dimmed">
          —
        </Text>
      ),
    skeleton: 120,
  },
  {
    key: 'reason',
    header: 'Reason',
    // A sign-in or an action that asks for no reason shows a dash, as the customer column does: a phone's card shows no bare label.
    cell: (r) =>
      r.reason ? (
        <Text size="sm" lineClamp={2} title={r.reason} style={{ whiteSpace: 'normal' }}>
          {r.reason}
        </Text>
      ) : (
        <Text span size="sm" c="dimmed">
          —
        </Text>
      ),
    skeleton: 220,
  },
];

/** /audit: who did what to which customer, when and why. */
export default function AuditPage() {
  return (
    <ListPage
      title="Audit log"
      description="Every staff action with who took it, when, and the reason they gave. Entries are never edited or removed."
      route="listStaffAudit"
      useRows={useListStaffAuditQuery}
      columns={COLUMNS}
      rowKey={(r) => r.id}
      noun={['action', 'actions']}
      empty={{
        icon: <IconHistory />,
        title: 'No staff actions yet',
        description: 'Actions taken on a customer’s page, with their reasons, appear here.',
      }}
    />
  );
}
