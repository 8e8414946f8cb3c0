import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  CreateStaffTokenBodySchema,
  STAFF_TOKEN_EXPIRY_DAYS,
  STAFF_TOKEN_NAME_MAX_LENGTH,
  type CreatedStaffToken,
  type StaffRole,
} from '@portal/contract';
import { ReasonField } from '../../../components/reason-dialog';
import { ROLE_LABEL } from '../../../lib/roles';
import { useCreateStaffTokenMutation } from '../api';
import { RoleField } from './role-field';
import { ErrorDisplay, SecretShownOnce, useSchemaForm } from '@portal/ui';

type Values = { name: string; role: StaffRole; expiry: string; reason: string };
const INITIAL: Values = { name: '', role: 'support', expiry: '90', reason: '' };
const EXPIRY_OPTIONS = STAFF_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `${d} days` }));
const toInput = (v: Values) => ({ name: v.name, role: v.role, expiresInDays: Number(v.expiry), reason: v.reason });

/**
 * An owner creates a staff API token: name, one role, a lifetime and why; then, in the same dialog,
 * the secret, shown this once with a copy button. Closing the dialog forgets it.
 */
export function CreateStaffTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedStaffToken | null>(null);
  const [create, creation] = useCreateStaffTokenMutation();
  const form = useSchemaForm({ schema: CreateStaffTokenBodySchema, initialValues: INITIAL, toInput });

  const close = () => {
    if (creation.isLoading) return;
    setCreated(null);
    form.reset(INITIAL);
    creation.reset();
    onClose();
  };

  const onSubmit = form.onSubmit(async (body) => {
    const result = await create(body);
    if ('error' in result) return form.showServerIssues(result.error);
    setCreated(result.data);
  });
  const role = form.field('role');

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy the new API token' : 'Create an API token'} size="lg">
      {created ? (
        <SecretShownOnce
          secret={created.secret}
          label={`Token “${created.token.name}”`}
          warning={
            <>
              Copy the token now and keep it in your script&apos;s secret store. It is not shown again; if it is lost, revoke it
              and create another. Anyone who has it can act as {ROLE_LABEL[created.token.role].toLowerCase()} staff until it
              expires.
            </>
          }
          onDone={close}
        >
          Send it as <code>Authorization: Bearer …</code> to this console&apos;s API; its OpenAPI document is at{' '}
          <code>/api/console/docs</code>. Every action still needs a <code>reason</code>.
        </SecretShownOnce>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Create an API token">
          <Stack gap="md">
            <TextInput
              data-autofocus
              label="Name"
              description="The script or system that uses it (for example: CRM sync). The audit log names its actions by it."
              maxLength={STAFF_TOKEN_NAME_MAX_LENGTH}
              required
              {...form.field('name')}
            />
            <RoleField value={role.value} onChange={(v) => role.onChange(v)} error={role.error} />
            <Text size="xs" c="dimmed">
              Whatever its role, a token never manages staff or tokens and never signs in to this console.
            </Text>
            <Select
              label="Expires"
              description="Every staff token expires; afterwards it answers 401 and you create a new one."
              data={EXPIRY_OPTIONS}
              allowDeselect={false}
              required
              {...form.field('expiry')}
            />
            <ReasonField {...form.field('reason')} />
            <ErrorDisplay error={creation.error} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={creation.isLoading}>
                Cancel
              </Button>
              <Button type="submit" loading={creation.isLoading}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
