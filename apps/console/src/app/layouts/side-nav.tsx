import { Box, NavLink, Stack, Text } from '@mantine/core';
import { consoleMay } from '@portal/contract';
import { Link, useLocation } from 'react-router';
import { shellClasses as classes } from '@portal/ui';
import { useConsoleSelector } from '../../lib/hooks';
import { NAV_GROUPS, type NavEntry } from './nav-entries';
import { StaffBlock } from './staff-block';

function Entry({ entry, active }: { entry: NavEntry; active: boolean }) {
  const Icon = entry.icon;
  return (
    <li>
      <NavLink
        component={Link}
        to={entry.path}
        label={entry.label}
        leftSection={<Icon size={18} stroke={1.7} />}
        active={active}
        aria-current={active ? 'page' : undefined}
        className={classes.navLink}
      />
    </li>
  );
}

/** The side menu: the pages the signed-in role may open, by group, then who is signed in. */
export function SideNav() {
  const role = useConsoleSelector((s) => s.session.staff?.role);
  const { pathname } = useLocation();
  if (!role) return null;
  const groups = NAV_GROUPS.map((g) => ({ ...g, entries: g.entries.filter((e) => consoleMay(role, e.route)) })).filter(
    (g) => g.entries.length > 0,
  );
  return (
    <Stack h="100%" gap={0}>
      <Box className={classes.menuScroll} px="sm" py="md">
        {groups.map((group) => (
          <Box key={group.label} mb="lg">
            <Text component="h2" className={classes.groupLabel} id={`nav-${group.label}`}>
              {group.label}
            </Text>
            <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`nav-${group.label}`}>
              {group.entries.map((entry) => (
                <Entry key={entry.path} entry={entry} active={pathname === entry.path || pathname.startsWith(`${entry.path}/`)} />
              ))}
            </Stack>
          </Box>
        ))}
      </Box>
      <StaffBlock />
    </Stack>
  );
}
