import { useEffect, type MouseEvent } from 'react';
import { AppShell, Drawer } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@portal/contract';
import { Outlet, useLocation } from 'react-router';
import { shellClasses as classes } from '@portal/ui';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';

const MAIN_ID = 'main-content';

/**
 * The signed-in console: the top bar with the search box, the side menu, and the page. At 992 px
 * and below the menu is a drawer (the kit's: focus kept inside, Escape and a click outside close
 * it, focus returns to the burger). The portal's shell styles, so both read as one product.
 */
export default function ConsoleShell() {
  const { pathname } = useLocation();
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const [menuOpen, menu] = useDisclosure(false);

  // A page chosen in the drawer closes it.
  useEffect(menu.close, [pathname]);

  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 256, breakpoint: MOBILE_BREAKPOINT_PX + 1, collapsed: { mobile: true } }}
      padding={{ base: 'md', sm: 'xl' }}
      className={classes.shell}
    >
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToContent}>
        Skip to content
      </a>
      <AppShell.Header className={classes.header}>
        <TopBar mobile={mobile} menuOpen={menuOpen} onToggleMenu={menu.toggle} />
      </AppShell.Header>
      {mobile ? (
        // The dialog itself carries the name: the kit's root element is a plain div that may not.
        <Drawer.Root opened={menuOpen} onClose={menu.close} size={280} padding={0}>
          <Drawer.Overlay />
          <Drawer.Content aria-label="Side menu">
            <nav aria-label="Side menu" style={{ height: '100dvh' }}>
              <SideNav />
            </nav>
          </Drawer.Content>
        </Drawer.Root>
      ) : (
        <AppShell.Navbar className={classes.navbar} aria-label="Side menu">
          <SideNav />
        </AppShell.Navbar>
      )}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
