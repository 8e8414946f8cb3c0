import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown, IconKey, IconLogout, IconMailForward, IconTrash } from '@tabler/icons-react';
import { displayName, type ConsoleCustomerProfile } from '@portal/contract';
import { useMay } from '../../../lib/permissions';
import type { PendingAction } from '../actions/action-dialog';

/** The customer-wide actions at the top of the page, each shown only to roles that may take it. */
export function CustomerActions({
  profile,
  onAction,
}: {
  profile: ConsoleCustomerProfile;
  onAction: (a: PendingAction) => void;
}) {
  const maySend = useMay('sendSignInLink');
  const mayEnd = useMay('endSessions');
  const mayIssue = useMay('issueLicense');
  const mayDelete = useMay('deleteCustomer');
  const params = { userId: profile.id };
  const who = displayName(profile) === 'No name' ? profile.email : displayName(profile);
  if (!maySend && !mayEnd && !mayIssue && !mayDelete) return null;
  return (
    <Group gap="sm">
      {maySend ? (
        <Button
          variant="default"
          leftSection={<IconMailForward size={16} />}
          onClick={() => onAction({ route: 'sendSignInLink', params, subject: profile.email })}
        >
          Send sign-in link
        </Button>
      ) : null}
      {mayEnd || mayIssue || mayDelete ? (
        <Menu position="bottom-end" shadow="md" width={260}>
          <Menu.Target>
            <Button variant="default" rightSection={<IconChevronDown size={16} />}>
              More actions
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {mayIssue ? (
              <Menu.Item
                leftSection={<IconKey size={16} />}
                onClick={() => onAction({ route: 'issueLicense', params, subject: who })}
              >
                Issue complimentary license…
              </Menu.Item>
            ) : null}
            {mayEnd ? (
              <Menu.Item
                leftSection={<IconLogout size={16} />}
                onClick={() => onAction({ route: 'endSessions', params, subject: who })}
              >
                End all sessions…
              </Menu.Item>
            ) : null}
            {mayDelete ? (
              <>
                <Menu.Divider />
                <Menu.Item
                  color="red"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => onAction({ route: 'deleteCustomer', params, subject: who, email: profile.email })}
                >
                  Delete customer…
                </Menu.Item>
              </>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      ) : null}
    </Group>
  );
}
