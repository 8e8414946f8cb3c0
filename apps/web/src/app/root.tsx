import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { trackPageView } from '../lib/analytics';
import { useGetConfigQuery } from '../lib/api';
import { useAppSelector } from '../lib/state/hooks';

const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'Sign in',
  '/signup': 'Create account',
  '/onboarding': 'Welcome',
};

/** The root route: one page view per route change, and the document title. */
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
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
