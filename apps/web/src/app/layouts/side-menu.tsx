import { ActionIcon, Badge, Box, Group, NavLink, Stack, Text, Tooltip } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { COMING_SOON_BADGE, displayName } from '@portal/contract';
import { Link, Navigate, useNavigate } from 'react-router';
import { UserAvatar } from '../../components/user-avatar';
import { useAppDispatch, useAppSelector } from '../../lib/state/hooks';
import { endSession } from '../../features/auth/session';
import { MENU_GROUPS } from './menu-entries';
import { shellClasses as classes } from '@portal/ui';

/** The side menu: Dashboard and Settings groups, then the signed-in user and Sign out. */
export function SideMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const profile = useAppSelector((s) => s.user.profile);
  const activePage = useAppSelector((s) => s.menu.activePage);

  if (!profile) return <Navigate to="/login" replace />;

  const signOut = async () => {
    await dispatch(endSession());
    void navigate('/login', { replace: true });
  };

  return (
    <Stack h="100%" gap={0}>
      {/* The navigation landmark is the navbar around this (AppShell.Navbar, 'Side menu'). */}
      <Box className={classes.menuScroll} px="sm" py="md">
        {MENU_GROUPS.map((group) => (
          <Box key={group.label} mb="lg">
            <Text component="h2" className={classes.groupLabel} id={`menu-${group.label}`}>
              {group.label}
            </Text>
            <Stack gap={2} role="list" aria-labelledby={`menu-${group.label}`}>
              {group.entries.map((entry) => {
                const icon = <entry.icon size={18} stroke={1.7} />;
                if (entry.disabled) {
                  return (
                    <NavLink
                      key={entry.label}
                      role="listitem"
                      component="div"
                      label={entry.label}
                      leftSection={icon}
                      rightSection={
                        <Badge size="xs" variant="light" color="gray" radius="sm" tt="none">
                          {COMING_SOON_BADGE}
                        </Badge>
                      }
                      disabled
                      noWrap
                      aria-disabled="true"
                      className={classes.navLink}
                    />
                  );
                }
                const active = activePage === entry.label;
                return (
                  <Box key={entry.label} role="listitem">
                    <NavLink
                      component={Link}
                      to={entry.path}
                      label={entry.label}
                      leftSection={icon}
                      active={active}
                      aria-current={active ? 'page' : undefined}
                      className={classes.navLink}
                    />
                  </Box>
                );
              })}
            </Stack>
          </Box>
        ))}
      </Box>
      <Box className={classes.userBlock} p="sm">
        <Group gap="sm" wrap="nowrap">
          <UserAvatar user={profile} />
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {displayName(profile)}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {profile.email}
            </Text>
          </Box>
          <Tooltip label="Sign out">
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Sign out" onClick={signOut}>
              <IconLogout size={18} stroke={1.7} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Box>
    </Stack>
  );
}
