import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AddStaffBodySchema, type StaffRole } from '@portal/contract';
import { ReasonField } from '../../../components/reason-dialog';
import { useAddStaffMutation } from '../api';
import { RoleField } from './role-field';
import { ErrorDisplay, useSchemaForm } from '@portal/ui';

/** Owners add a staff member: their address and role; they sign in with an e-mailed link. */
export function AddStaffDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add staff member">
      {opened ? <AddStaffForm onClose={onClose} /> : null}
    </Modal>
  );
}

function AddStaffForm({ onClose }: { onClose: () => void }) {
  const [add, { isLoading, error }] = useAddStaffMutation();
  const form = useSchemaForm({
    schema: AddStaffBodySchema,
    initialValues: { email: '', role: 'support' as StaffRole, reason: '' },
  });
  const email = form.field('email');
  const role = form.field('role');
  const reason = form.field('reason');
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (body) => {
        const result = await add(body);
        if ('error' in result) return form.showServerIssues(result.error);
        notifications.show({
          color: 'green',
          title: 'Staff member added',
          message: `${body.email} can now sign in to the console.`,
        });
        onClose();
      })}
    >
      <Stack gap="md">
        <TextInput
          label="E-mail address"
          placeholder="colleague@vendor.com"
          type="email"
          required
          data-autofocus
          value={email.value}
          error={email.error}
          onChange={(e) => email.onChange(e.currentTarget.value)}
        />
        <RoleField value={role.value} onChange={(v) => role.onChange(v)} error={role.error} />
        <ReasonField value={reason.value} error={reason.error} onChange={(e) => reason.onChange(e.currentTarget.value)} />
        <Text size="xs" c="dimmed">
          They sign in with a link e-mailed to this address; there is no password.
        </Text>
        <ErrorDisplay error={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" loading={isLoading}>
            Add staff member
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
