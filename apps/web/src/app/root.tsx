import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { trackPageView } from '../lib/analytics';
import { useGetConfigQuery } from '../lib/api';
import { useAppSelector } from '../lib/state/hooks';
import { ScrollRestoration } from './scroll-restoration';

const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/signup': 'Create account',
  '/onboarding': 'Welcome',
};

/**
 * The root route: one page view per route change, the document title, and scrolling. A navigation
 * keeps the current screen until the next page's code is here (navigations are transitions), and
 * the scroll position is set once that page is on screen.
 */
export function Root() {
  const location = useLocation();
  const activePage = useAppSelector((s) => s.menu.activePage);
  const { data: config } = useGetConfigQuery();

  useEffect(() => {
    trackPageView(location.pathname);
  }, [location.pathname]);

  const page = location.pathname.startsWith('/app/') ? activePage : PUBLIC_TITLES[location.pathname];
  const brand = config?.brandName ?? 'Customer portal';
  useEffect(() => {
    document.title = page ? `${page} · ${brand}` : brand;
  }, [page, brand]);

  return (
    <Suspense fallback={null}>
      <Outlet />
      <ScrollRestoration />
    </Suspense>
  );
}
