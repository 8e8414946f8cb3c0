import { useState } from 'react';
import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { type StaffToken, formatDate, formatRelative } from '@portal/contract';
import { Navigate } from 'react-router';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useMay } from '../../../lib/permissions';
import { ROLE_LABEL } from '../../../lib/roles';
import { useListStaffTokensQuery, useRevokeStaffTokenMutation } from '../api';
import { CreateStaffTokenDialog } from './create-staff-token-dialog';
import { ReasonDialog } from '../../../components/reason-dialog';
import { EmptyState, ListCard } from '@portal/ui';

/** /api-tokens (owners): the staff API tokens the vendor's scripts use on the console's API. */
export default function ApiTokensPage() {
  const mayList = useMay('listStaffTokens');
  const list = useListStaffTokensQuery(undefined, { skip: !mayList });
  const [revoke] = useRevokeStaffTokenMutation();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<StaffToken | null>(null);
  if (!mayList) return <Navigate to="/overview" replace />;
  const now = new Date();

  return (
    <PageFrame
      title="API tokens"
      description="Tokens for the vendor's scripts on the console's API: each acts with one role until it expires or is revoked."
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Create API token
        </Button>
      }
    >
      <ListCard
        query={list}
        loadingLabel="Loading API tokens"
        loadingRows={3}
        empty={
          <EmptyState
            icon={<IconKey />}
            title="No API tokens"
            description="Create one for a script that works with customers, licenses or billing through the console's API."
          />
        }
        minWidth={760}
        aria-label="API tokens"
        className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards} ${tableClasses.inset}`}
        head={
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th w={110}>Role</Table.Th>
              <Table.Th w={110}>Token</Table.Th>
              <Table.Th w={130}>Last used</Table.Th>
              <Table.Th w={120}>Expires</Table.Th>
              <Table.Th>Created by</Table.Th>
              <Table.Th w={100}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        }
      >
        {(items) =>
          items.map((token) => {
            const expired = new Date(token.expiresAt) <= now;
            return (
              <Table.Tr key={token.id}>
                <Table.Td fw={500} data-label="Name">
                  <span className={tableClasses.truncate} title={token.name}>
                    {token.name}
                  </span>
                </Table.Td>
                <Table.Td data-label="Role">{ROLE_LABEL[token.role]}</Table.Td>
                <Table.Td ff="monospace" data-label="Token">
                  {token.hint}…
                </Table.Td>
                <Table.Td data-label="Last used">
                  {token.lastUsedAt ? (
                    formatRelative(token.lastUsedAt)
                  ) : (
                    <Text span size="sm" c="dimmed">
                      Never
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-label="Expires">
                  {expired ? (
                    <Badge color="red" variant="light" size="sm">
                      Expired
                    </Badge>
                  ) : (
                    formatDate(token.expiresAt)
                  )}
                </Table.Td>
                <Table.Td data-label="Created by">
                  <span className={tableClasses.truncate} title={token.createdBy ?? undefined}>
                    {token.createdBy ?? '—'}
                  </span>
                </Table.Td>
                <Table.Td data-menu>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    aria-label={`Revoke ${token.name}`}
                    onClick={() => setRevoking(token)}
                  >
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })
        }
      </ListCard>
      <CreateStaffTokenDialog opened={creating} onClose={() => setCreating(false)} />
      <ReasonDialog
        opened={revoking !== null}
        title="Revoke API token"
        confirm="Revoke"
        color="red"
        onClose={() => setRevoking(null)}
        onConfirm={async (reason) => {
          if (!revoking) return;
          const result = await revoke({ tokenId: revoking.id, body: { reason } });
          if ('error' in result) return result.error;
          notifications.show({ color: 'green', title: 'API token revoked', message: `${revoking.name} no longer works.` });
        }}
      >
        <Text size="sm">
          Scripts using{' '}
          <Text span fw={600}>
            {revoking?.name}
          </Text>{' '}
          get 401 from their next request. This cannot be undone; its past actions stay in the audit log.
        </Text>
      </ReasonDialog>
    </PageFrame>
  );
}
