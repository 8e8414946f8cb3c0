import { forwardRef } from 'react';
import { ActionIcon, Burger, Group, Tooltip } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { TEXT, TOOLTIP_CLOSE_DELAY_MS, TOOLTIP_OPEN_DELAY_MS } from '@portal/contract';
import { Link, Navigate } from 'react-router';
import { useGetConfigQuery } from '../../lib/api';
import { useAppDispatch, useAppSelector } from '../../lib/state/hooks';
import { toggleMobile } from '../../lib/state/menu-slice';
import { BrandLogo, shellClasses } from '@portal/ui';

/** The name in the header when the vendor's configuration cannot be read (the document title's too). */
const FALLBACK_BRAND = 'Customer portal';

export interface TopBarProps {
  /** Whether the viewport is at or below the mobile breakpoint (the burger is shown). */
  mobile: boolean;
  navbarId: string;
}

/** The top bar: menu toggle (narrow screens), brand logo linking to /, documentation link. */
export const TopBar = forwardRef<HTMLButtonElement, TopBarProps>(function TopBar({ mobile, navbarId }, burgerRef) {
  const dispatch = useAppDispatch();
  const profile = useAppSelector((s) => s.user.profile);
  const mobileOpen = useAppSelector((s) => s.menu.mobileOpen);
  const { data: config, isError, isFetching } = useGetConfigQuery();
  // The layout waits for the configuration's first answer; when that failed (and while it is asked
  // again), the portal's own name stands in.
  const brand = config?.brandName ?? (isError || isFetching ? FALLBACK_BRAND : undefined);

  if (!profile) return <Navigate to="/login" replace />;

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {mobile ? (
          <Burger
            ref={burgerRef}
            opened={mobileOpen}
            onClick={() => dispatch(toggleMobile())}
            size="sm"
            className={shellClasses.menuButton}
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={mobileOpen}
            aria-controls={navbarId}
          />
        ) : null}
        <Link to="/" aria-label={`${brand ?? 'Portal'} home`} style={{ textDecoration: 'none' }}>
          <BrandLogo name={brand} size="sm" />
        </Link>
      </Group>
      {config?.docsUrl ? (
        <Tooltip label={TEXT.documentation} openDelay={TOOLTIP_OPEN_DELAY_MS} closeDelay={TOOLTIP_CLOSE_DELAY_MS}>
          <ActionIcon
            component="a"
            href={config.docsUrl}
            target="_blank"
            rel="noopener noreferrer"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={TEXT.documentation}
          >
            <IconBook2 size={20} stroke={1.7} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
});
