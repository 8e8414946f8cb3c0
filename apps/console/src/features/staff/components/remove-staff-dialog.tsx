import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { StaffMember } from '@portal/contract';
import { ErrorDisplay } from '@web/components/error-display';
import { useRemoveStaffMutation } from '../api';

/** Owners remove a staff member after one confirmation: their console sessions end at once. */
export function RemoveStaffDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const [remove, { isLoading, error, reset }] = useRemoveStaffMutation();
  const close = () => {
    reset();
    onClose();
  };
  const confirm = async () => {
    if (!member) return;
    const result = await remove(member.id);
    if ('error' in result) return;
    notifications.show({ color: 'green', title: 'Staff member removed', message: `${member.email} can no longer sign in.` });
    close();
  };
  return (
    <Modal opened={member !== null} onClose={close} title="Remove staff member">
      <Stack gap="md">
        <Text size="sm">
          <Text span fw={600}>
            {member?.email}
          </Text>{' '}
          is signed out of the console at once and can no longer sign in. Their past actions stay in the audit log.
        </Text>
        <ErrorDisplay error={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={isLoading}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={isLoading}>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
