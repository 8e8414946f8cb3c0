import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconShieldOff, IconTrash, IconUserPlus, IconUserShield } from '@tabler/icons-react';
import { STAFF_ROLES, type StaffMember, type StaffRole, formatDate, formatRelative } from '@portal/contract';
import { Navigate } from 'react-router';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useConsoleSelector } from '../../../lib/hooks';
import { useMay } from '../../../lib/permissions';
import { ROLE_LABEL } from '../../../lib/roles';
import { useListStaffQuery, useResetStaffFactorsMutation, useUpdateStaffMutation } from '../api';
import { AddStaffDialog } from './add-staff-dialog';
import { ReasonDialog } from '../../../components/reason-dialog';
import { RemoveStaffDialog } from './remove-staff-dialog';
import { EmptyState, ListCard } from '@portal/ui';

/** /staff (owners): who may use the console, with which role. */
export default function StaffPage() {
  const mayList = useMay('listStaff');
  const me = useConsoleSelector((s) => s.session.staff);
  const list = useListStaffQuery(undefined, { skip: !mayList });
  const [update] = useUpdateStaffMutation();
  const [reset] = useResetStaffFactorsMutation();
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  const [resetting, setResetting] = useState<StaffMember | null>(null);
  const [roleChange, setRoleChange] = useState<{ member: StaffMember; role: StaffRole } | null>(null);
  const [adding, setAdding] = useState(false);
  if (!mayList) return <Navigate to="/overview" replace />;

  const changeRole = async (member: StaffMember, role: StaffRole, reason: string) => {
    const result = await update({ id: member.id, body: { role, reason } });
    if ('error' in result) return result.error;
    notifications.show({
      color: 'green',
      title: 'Role changed',
      message: `${member.email} is now ${ROLE_LABEL[role].toLowerCase()}.`,
    });
  };
  const resetFactors = async (member: StaffMember, reason: string) => {
    const result = await reset({ id: member.id, body: { reason } });
    if ('error' in result) return result.error;
    notifications.show({
      color: 'green',
      title: 'Second factors reset',
      message: `${member.email} is signed out and adds a new factor at their next sign-in.`,
    });
  };

  return (
    <PageFrame
      title="Staff"
      description="Who can sign in to the console, and what each role may do. Changes take effect at their next request."
      actions={
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
          Add staff member
        </Button>
      }
    >
      <ListCard
        query={list}
        loadingLabel="Loading staff"
        loadingRows={4}
        empty={
          <EmptyState
            icon={<IconUserShield />}
            title="No staff yet"
            description="Add the people who support your customers and run billing."
          />
        }
        minWidth={640}
        aria-label="Staff members"
        className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards} ${tableClasses.inset}`}
        head={
          <Table.Thead>
            <Table.Tr>
              <Table.Th>E-mail</Table.Th>
              <Table.Th w={160}>Role</Table.Th>
              <Table.Th w={150}>Last sign-in</Table.Th>
              <Table.Th w={130}>Added</Table.Th>
              <Table.Th w={88}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        }
      >
        {(items) =>
          items.map((m) => {
            const self = m.id === me?.id;
            return (
              <Table.Tr key={m.id}>
                <Table.Td fw={500} data-label="E-mail">
                  <span className={tableClasses.truncate} title={m.email}>
                    {m.email}
                    {self ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        (you)
                      </Text>
                    ) : null}
                  </span>
                </Table.Td>
                <Table.Td data-label="Role">
                  {self ? (
                    <Text size="sm">{ROLE_LABEL[m.role]}</Text>
                  ) : (
                    <Select
                      aria-label={`Role of ${m.email}`}
                      data={STAFF_ROLES.map((r) => ({ value: r, label: ROLE_LABEL[r] }))}
                      value={m.role}
                      onChange={(v) => v && v !== m.role && setRoleChange({ member: m, role: v as StaffRole })}
                      allowDeselect={false}
                      size="xs"
                      w={130}
                    />
                  )}
                </Table.Td>
                <Table.Td data-label="Last sign-in">
                  {m.lastSignInAt ? (
                    formatRelative(m.lastSignInAt)
                  ) : (
                    <Text span size="sm" c="dimmed">
                      Never
                    </Text>
                  )}
                </Table.Td>
                <Table.Td data-label="Added">{formatDate(m.createdAt)}</Table.Td>
                <Table.Td data-menu>
                  {self ? null : (
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={`Reset second factors of ${m.email}`}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={`Reset second factors of ${m.email}`}
                          onClick={() => setResetting(m)}
                        >
                          <IconShieldOff size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={`Remove ${m.email}`}>
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })
        }
      </ListCard>
      <AddStaffDialog opened={adding} onClose={() => setAdding(false)} />
      <RemoveStaffDialog member={removing} onClose={() => setRemoving(null)} />
      <ReasonDialog
        opened={roleChange !== null}
        title="Change role"
        confirm="Change role"
        onClose={() => setRoleChange(null)}
        onConfirm={async (reason) => (roleChange ? changeRole(roleChange.member, roleChange.role, reason) : undefined)}
      >
        <Text size="sm">
          <Text span fw={600}>
            {roleChange?.member.email}
          </Text>{' '}
          becomes {roleChange ? ROLE_LABEL[roleChange.role].toLowerCase() : ''} at their next request.
        </Text>
      </ReasonDialog>
      <ReasonDialog
        opened={resetting !== null}
        title="Reset second factors"
        confirm="Reset factors"
        color="red"
        onClose={() => setResetting(null)}
        onConfirm={async (reason) => (resetting ? resetFactors(resetting, reason) : undefined)}
      >
        <Text size="sm">
          Removes every passkey, authenticator app and recovery code of{' '}
          <Text span fw={600}>
            {resetting?.email}
          </Text>{' '}
          (a lost phone or laptop) and signs them out. At their next sign-in by link they add a new factor.
        </Text>
      </ReasonDialog>
    </PageFrame>
  );
}
