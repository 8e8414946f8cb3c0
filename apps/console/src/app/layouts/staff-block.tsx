import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronUp, IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { shellClasses as classes } from '@portal/ui';
import { endSession } from '../../features/auth/session';
import { useConsoleDispatch, useConsoleSelector } from '../../lib/hooks';
import { ROLE_LABEL } from '../../lib/roles';

/** The bottom of the side menu: who is signed in, with which role; its menu signs out. */
export function StaffBlock() {
  const dispatch = useConsoleDispatch();
  const navigate = useNavigate();
  const staff = useConsoleSelector((s) => s.session.staff);
  if (!staff) return null;

  const signOut = async () => {
    await dispatch(endSession());
    void navigate('/login', { replace: true });
  };

  return (
    <Box className={classes.userBlock} p="xs">
      <Menu position="top-start" width="target" shadow="md">
        <Menu.Target>
          <UnstyledButton
            w="100%"
            p="xs"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            aria-label={`${staff.email}, ${ROLE_LABEL[staff.role]}: account menu`}
          >
            <Group gap="sm" wrap="nowrap">
              <Avatar radius="xl" variant="light" color="brand" size={34} alt="">
                {staff.email.slice(0, 2).toUpperCase()}
              </Avatar>
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={600} truncate>
                  {staff.email}
                </Text>
                <Text size="xs" c="dimmed">
                  {ROLE_LABEL[staff.role]}
                </Text>
              </Box>
              <IconChevronUp size={16} stroke={1.7} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}
