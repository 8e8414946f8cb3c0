import { useEffect, useState } from 'react';
import { AppShell } from '@mantine/core';
import { useClickOutside, useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import { MOBILE_BREAKPOINT_PX } from '@portal/contract';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ModalHost } from '../../components/modal-host';
import { useAppDispatch, useAppSelector } from '../../lib/state/hooks';
import { setMobileOpen } from '../../lib/state/menu-slice';
import { loginPathFor } from '../../lib/safe-path';
import { modalBodies } from '../modal-bodies';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import classes from './app-layout.module.css';

const NAVBAR_ID = 'portal-side-menu';

/**
 * The signed-in layout of /app/*. Nothing while the session check runs; visitors without a
 * session go to /login?to=<this page>; users who are not onboarded go to /onboarding.
 */
export function AppLayout() {
  const { checkingAuth, authenticated, profile } = useAppSelector((s) => s.user);
  const location = useLocation();

  if (checkingAuth) return null;
  if (!authenticated) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (profile && !profile.onboarded) return <Navigate to="/onboarding" replace />;
  return <Shell />;
}

function Shell() {
  const dispatch = useAppDispatch();
  const mobileOpen = useAppSelector((s) => s.menu.mobileOpen);
  const { pathname } = useLocation();
  // The menu becomes a toggled drawer at 992 px and below (the specification's breakpoint).
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const [navbar, setNavbar] = useState<HTMLElement | null>(null);
  const [burger, setBurger] = useState<HTMLButtonElement | null>(null);

  // Close the drawer on navigation and on a click anywhere outside it (the burger toggles itself).
  useEffect(() => {
    dispatch(setMobileOpen(false));
  }, [dispatch, pathname]);
  useClickOutside(
    () => {
      if (mobileOpen) dispatch(setMobileOpen(false));
    },
    null,
    [navbar, burger],
  );

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: 288,
        // Mantine treats widths below `breakpoint` as mobile: 993 makes 992 px itself mobile.
        breakpoint: MOBILE_BREAKPOINT_PX + 1,
        collapsed: { mobile: !mobileOpen },
      }}
      padding={{ base: 'md', sm: 'xl' }}
      className={classes.shell}
    >
      <AppShell.Header className={classes.header}>
        <TopBar ref={setBurger} mobile={mobile} navbarId={NAVBAR_ID} />
      </AppShell.Header>
      <AppShell.Navbar
        ref={setNavbar}
        id={NAVBAR_ID}
        className={classes.navbar}
        aria-label="Side menu"
        // Lets the stylesheet hide the closed drawer from keyboard and screen readers on narrow screens.
        mod={{ closed: !mobileOpen }}
      >
        <SideMenu />
      </AppShell.Navbar>
      {mobile && mobileOpen ? <div className={classes.backdrop} aria-hidden="true" /> : null}
      <AppShell.Main className={classes.main}>
        <Outlet />
      </AppShell.Main>
      <ModalHost bodies={modalBodies} />
      <Notifications position="top-right" />
    </AppShell>
  );
}
