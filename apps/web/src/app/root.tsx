import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { trackPageView } from '../lib/analytics';
import { useGetConfigQuery } from '../lib/api';
import { useAppSelector } from '../lib/state/hooks';
import { PortalUnreachable, useSessionUnreachable } from './portal-unreachable';
import { ScrollRestoration } from './scroll-restoration';

const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/signup': 'Create account',
  '/onboarding': 'Welcome',
};

/**
 * The root route: one page view per route change, the document title, and scrolling. A navigation
 * keeps the current screen until the next page's code is here (navigations are transitions), and
 * the scroll position is set once that page is on screen. While the session check cannot reach
 * the portal, a screen says so instead of any page.
 */
export function Root() {
  const location = useLocation();
  const activePage = useAppSelector((s) => s.menu.activePage);
  const { data: config } = useGetConfigQuery();
  const checkingAuth = useAppSelector((s) => s.user.checkingAuth);
  const unreachable = useSessionUnreachable();

  useEffect(() => {
    trackPageView(location.pathname);
  }, [location.pathname]);

  const page = location.pathname.startsWith('/app/') ? activePage : PUBLIC_TITLES[location.pathname];
  const brand = config?.brandName ?? 'Customer portal';
  useEffect(() => {
    document.title = page ? `${page} · ${brand}` : brand;
  }, [page, brand]);

  // The session is unknown, not absent: say so rather than send the visitor to sign in.
  if (checkingAuth && unreachable) return <PortalUnreachable />;

  return (
    <Suspense fallback={null}>
      <Outlet />
      <ScrollRestoration />
    </Suspense>
  );
}
