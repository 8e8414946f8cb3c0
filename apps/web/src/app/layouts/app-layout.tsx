// The kit's styles for the signed-in pages, before this layout's own (which may override them).
import './kit-signed-in.css';
import { useEffect, useRef, type MouseEvent } from 'react';
import { AppShell } from '@mantine/core';
import { useClickOutside, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX, warmUpFormatters } from '@portal/contract';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ModalHost } from '../../components/modal-host';
import { useGetConfigQuery } from '../../lib/api';
import { PaymentFailingBanner } from '../../features/billing/components/payment-failing-banner';
import { useAppDispatch, useAppSelector } from '../../lib/state/hooks';
import { setMobileOpen } from '../../lib/state/menu-slice';
import { loginPathFor } from '../../lib/safe-path';
import { modalBodies } from '../modal-bodies';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import { shellClasses as classes } from '@portal/ui';

// For main.tsx, which marks the opened page, starts its reads and waits for them: this chunk is
// preloaded by app.html, so they need no request of their own (docs/decisions/133, 134, 136).
export { answeredOrLater, markOpenedPage, startPageReads } from '../page-reads';

// Signed-in pages show dates and prices: the locale's data loads while the session is asked for,
// rather than in the render that shows the first of them (docs/decisions/127).
setTimeout(() => warmUpFormatters(), 0);

const NAVBAR_ID = 'portal-side-menu';
const MAIN_ID = 'main-content';

/** Moves focus to the page's content (the skip link, and after a choice in the mobile drawer). */
function focusMain() {
  document.getElementById(MAIN_ID)?.focus();
}

/**
 * The signed-in layout of /app/*. Nothing while the session check runs; visitors without a
 * session go to /login?to=<this page>; users who are not onboarded go to /onboarding.
 * The shell also waits for the public configuration (asked for at start-up beside the session),
 * so its header shows the brand name at once instead of a placeholder that flashes.
 */
export function AppLayout() {
  const { checkingAuth, authenticated, profile } = useAppSelector((s) => s.user);
  const location = useLocation();
  const { isLoading: brandLoading } = useGetConfigQuery();
  // Only the first answer is waited for: a failed read is asked again when the header subscribes,
  // and that retry must not take the shell away again.
  const brandSettled = useRef(false);
  if (!brandLoading) brandSettled.current = true;

  if (checkingAuth) return null;
  if (!authenticated) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (profile && !profile.onboarded) return <Navigate to="/onboarding" replace />;
  if (!brandSettled.current) return null;
  return <Shell />;
}

function Shell() {
  const dispatch = useAppDispatch();
  const mobileOpen = useAppSelector((s) => s.menu.mobileOpen);
  const { pathname } = useLocation();
  // The menu becomes a toggled drawer at 992 px and below (MOBILE_BREAKPOINT_PX of the contract),
  // known at the first render: found out in an effect, it would draw the whole shell a second time
  // on every phone (docs/decisions/124).
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`, undefined, { getInitialValueInEffect: false });
  // Refs, not state: an element kept in state is set as the shell is committed, and draws the
  // shell again at once, in one piece.
  const navbar = useRef<HTMLDivElement>(null);
  const burger = useRef<HTMLButtonElement>(null);
  const firstPath = useRef(pathname);

  // Close the drawer on navigation and on a click anywhere outside it (the burger toggles itself).
  // A keyboard user who chose a page in the drawer continues in that page, not on the hidden link.
  useEffect(() => {
    dispatch(setMobileOpen(false));
    if (pathname !== firstPath.current && navbar.current?.contains(document.activeElement) && mobile) focusMain();
    firstPath.current = pathname;
    // Only on navigation: the breakpoint is read as it is then.
  }, [dispatch, pathname]);
  // The elements as this render sees them: the drawer opens by a render, which reads them drawn.
  useClickOutside(
    () => {
      if (mobileOpen) dispatch(setMobileOpen(false));
    },
    null,
    [navbar.current, burger.current],
  );
  // Escape closes the drawer and gives focus back to the button that opened it.
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape' || !mobileOpen) return;
    dispatch(setMobileOpen(false));
    if (navbar.current?.contains(document.activeElement)) burger.current?.focus();
  });

  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    // The same target as the href, without touching the address (the router owns it).
    event.preventDefault();
    focusMain();
  };

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
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToContent}>
        Skip to content
      </a>
      <AppShell.Header className={classes.header}>
        <TopBar ref={burger} mobile={mobile} navbarId={NAVBAR_ID} />
      </AppShell.Header>
      <AppShell.Navbar
        ref={navbar}
        id={NAVBAR_ID}
        className={classes.navbar}
        aria-label="Side menu"
        // Lets the stylesheet hide the closed drawer from keyboard and screen readers on narrow screens.
        mod={{ closed: !mobileOpen }}
      >
        <SideMenu />
      </AppShell.Navbar>
      {mobile && mobileOpen ? <div className={classes.backdrop} aria-hidden="true" /> : null}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        {/* Above every signed-in page while a payment is failing (issue 22, ADR 050). */}
        <PaymentFailingBanner />
        <Outlet />
      </AppShell.Main>
      <ModalHost bodies={modalBodies} />
    </AppShell>
  );
}
