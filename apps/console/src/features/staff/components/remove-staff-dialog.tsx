import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { StaffMember } from '@portal/contract';
import { useRemoveStaffMutation } from '../api';
import { ReasonDialog } from '../../../components/reason-dialog';

/** Owners remove a staff member with a reason: their console sessions and sign-in links end at once. */
export function RemoveStaffDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const [remove] = useRemoveStaffMutation();
  return (
    <ReasonDialog
      opened={member !== null}
      title="Remove staff member"
      confirm="Remove"
      color="red"
      onClose={onClose}
      onConfirm={async (reason) => {
        if (!member) return;
        const result = await remove({ id: member.id, body: { reason } });
        if ('error' in result) return result.error;
        notifications.show({ color: 'green', title: 'Staff member removed', message: `${member.email} can no longer sign in.` });
      }}
    >
      <Text size="sm">
        <Text span fw={600}>
          {member?.email}
        </Text>{' '}
        is signed out of the console at once, their open sign-in links stop working, and they can no longer sign in. Their past
        actions stay in the audit log.
      </Text>
    </ReasonDialog>
  );
}
