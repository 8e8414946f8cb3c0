import { ActionIcon, Box, Burger, Group, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SearchBox } from '../../features/search/components/search-box';
import { BrandLogo } from '@portal/ui';

export interface TopBarProps {
  /** At or below the mobile breakpoint: the burger shows and the brand hides. */
  mobile: boolean;
  menuOpen: boolean;
  onToggleMenu: () => void;
}

/** The top bar: menu toggle (narrow screens), the console's mark, the search box, the colour scheme. */
export function TopBar({ mobile, menuOpen, onToggleMenu }: TopBarProps) {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <Group h="100%" px="md" gap="md" wrap="nowrap">
      {mobile ? (
        <Burger opened={menuOpen} onClick={onToggleMenu} size="sm" aria-label="Open menu" aria-expanded={menuOpen} />
      ) : null}
      {/* On a phone the search box needs the width; the menu holds every way home. */}
      {mobile ? null : (
        <Link to="/overview" aria-label="Vendor console home" style={{ textDecoration: 'none', flexShrink: 0 }}>
          <BrandLogo name="Vendor console" size="sm" />
        </Link>
      )}
      <Box style={{ flex: 1, minWidth: 0 }} maw={560} mx={mobile ? 0 : 'auto'}>
        <SearchBox compact={mobile} />
      </Box>
      <Tooltip label={`Switch to the ${next} theme`}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={`Switch to the ${next} theme`}
          onClick={() => setColorScheme(next)}
        >
          {scheme === 'dark' ? <IconSun size={18} stroke={1.7} /> : <IconMoon size={18} stroke={1.7} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
