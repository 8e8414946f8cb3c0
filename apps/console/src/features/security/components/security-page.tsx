import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceMobile, IconFingerprint, IconTrash } from '@tabler/icons-react';
import { type StaffFactor, formatDate, formatRelative } from '@portal/contract';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useListFactorsQuery, useRegenerateRecoveryCodesMutation, useRemoveFactorMutation } from '../api';
import { AddFactor } from './add-factor';
import { RecoveryCodes } from './recovery-codes';
import { ErrorDisplay, SkeletonRows, TableCard, errorMessage } from '@portal/ui';

const KIND = {
  passkey: { label: 'Passkey', icon: IconFingerprint },
  totp: { label: 'Authenticator app', icon: IconDeviceMobile },
} as const;

/** /security: the signed-in member's own second factors and recovery codes. */
export default function SecurityPage() {
  const { data, error, isLoading, isFetching, refetch } = useListFactorsQuery();
  const [remove] = useRemoveFactorMutation();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [codes, setCodes] = useState<string[] | null>(null);

  const onRemove = async (f: StaffFactor) => {
    const r = await remove(f.id);
    if ('error' in r) notifications.show({ color: 'red', title: 'Not removed', message: errorMessage(r.error) });
    else notifications.show({ color: 'green', title: 'Removed', message: `${f.label} no longer signs you in.` });
  };
  const onRegenerate = async () => {
    const r = await regenerate();
    if ('data' in r && r.data) setCodes(r.data.recoveryCodes);
  };

  return (
    <PageFrame
      title="Security"
      description="Your second factors: after the e-mailed link, the console asks for one of them before anything else."
    >
      {error ? <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} /> : null}
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      {isLoading ? (
        <Paper withBorder p="xl" aria-busy="true" aria-label="Loading your factors">
          <SkeletonRows count={2} height={16} />
        </Paper>
      ) : data ? (
        <Stack gap="lg">
          {data.items.length === 0 ? (
            <Paper withBorder p="lg">
              <Text size="sm">
                You have no second factor yet.{' '}
                {data.required ? 'Your role requires one.' : 'Add one: your sign-in then needs more than your mailbox.'}
              </Text>
            </Paper>
          ) : (
            <TableCard
              minWidth={560}
              aria-label="Your second factors"
              className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards} ${tableClasses.inset}`}
              head={
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th w={190}>Kind</Table.Th>
                    <Table.Th w={140}>Last used</Table.Th>
                    <Table.Th w={130}>Added</Table.Th>
                    <Table.Th w={64}>
                      <VisuallyHidden>Remove</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
              }
            >
              {data.items.map((f) => {
                const Icon = KIND[f.kind].icon;
                return (
                  <Table.Tr key={f.id}>
                    <Table.Td fw={500} data-label="Name">
                      <span className={tableClasses.truncate} title={f.label}>
                        {f.label}
                      </span>
                    </Table.Td>
                    <Table.Td data-label="Kind">
                      <Group gap={6} wrap="nowrap">
                        <Icon size={16} stroke={1.6} aria-hidden />
                        <Text size="sm">{KIND[f.kind].label}</Text>
                      </Group>
                    </Table.Td>
                    <Table.Td data-label="Last used">{f.lastUsedAt ? formatRelative(f.lastUsedAt) : '—'}</Table.Td>
                    <Table.Td data-label="Added">{formatDate(f.createdAt)}</Table.Td>
                    <Table.Td data-menu>
                      <Tooltip label={`Remove ${f.label}`}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${f.label}`}
                          onClick={() => void onRemove(f)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </TableCard>
          )}
          {data.items.length > 0 ? (
            <Paper withBorder p="lg">
              <Group justify="space-between" gap="sm">
                <Stack gap={2}>
                  <Title order={2} size="h5">
                    Recovery codes
                  </Title>
                  <Text size="sm" c="dimmed">
                    For the day your passkey or phone is lost.{' '}
                    <Badge variant="light" color={data.recoveryCodesLeft > 2 ? 'gray' : 'yellow'}>
                      {data.recoveryCodesLeft} left
                    </Badge>
                  </Text>
                </Stack>
                <Button variant="default" onClick={() => void onRegenerate()} loading={regenerating.isLoading}>
                  New recovery codes
                </Button>
              </Group>
              <ErrorDisplay error={regenerating.error} />
            </Paper>
          ) : null}
          <Stack gap="xs">
            <Title order={2} size="h4">
              Add a second factor
            </Title>
            <AddFactor wide onAdded={(r) => r.recoveryCodes && setCodes(r.recoveryCodes)} />
          </Stack>
        </Stack>
      ) : null}
    </PageFrame>
  );
}
