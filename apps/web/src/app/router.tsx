import { DEFAULT_LANDING } from '@portal/contract';
import { matchRoutes, Navigate, useLocation, useRoutes, type Location, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { lazyPage, type LazyPage } from './lazy-page';
import { Root } from './root';
import { PublicLayout } from './layouts/public-layout';
import { OnboardingGate } from './layouts/onboarding-gate';
import { RouteErrorBoundary } from './route-error-boundary';

const SignUpPage = lazyPage(async () => (await import('../features/auth/components/signup-page')).SignUpPage);
const OnboardingPage = lazyPage(async () => (await import('../features/onboarding/components/onboarding-page')).OnboardingPage);
const AppLayout = lazyPage(async () => (await import('./layouts/app-layout')).AppLayout);
const DashboardPage = lazyPage(async () => (await import('./dashboard/dashboard-page')).DashboardPage);
const LicensesPage = lazyPage(async () => (await import('../features/licenses/components/licenses-page')).LicensesPage);
const SupportPage = lazyPage(async () => (await import('../features/support/components/support-page')).SupportPage);
const DownloadIsoPage = lazyPage(
  async () => (await import('../features/downloads/components/download-iso-page')).DownloadIsoPage,
);
const BillingPage = lazyPage(async () => (await import('./billing/billing-page')).BillingPage);
const ProfilePage = lazyPage(async () => (await import('../features/profile/components/profile-page')).ProfilePage);
const AccessControlPage = lazyPage(async () => (await import('./access-control-page')).AccessControlPage);

/** A route whose element is a lazily loaded page; `handle.page` lets AppRoutes start its load early. */
function lazyRoute(page: LazyPage, route: { path?: string; index?: true; children?: RouteObject[] }): RouteObject {
  const Page = page;
  return { ...route, element: <Page />, handle: { page } } as RouteObject;
}

/**
 * The portal's routes (listed in apps/web/README.md). Pages, and the signed-in layout, load lazily:
 * the screen stays as it is while the next one loads (navigations are transitions), and the
 * progress bar (router-progress.tsx) shows at the top meanwhile.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <PublicLayout />,
        // The sign-in page is the first screen of every guest: it comes with the first script instead
        // of a second round of requests (docs/decisions/038).
        children: [{ path: '/login', element: <LoginPage /> }, lazyRoute(SignUpPage, { path: '/signup' })],
      },
      {
        path: '/onboarding',
        element: <OnboardingGate />,
        children: [lazyRoute(OnboardingPage, { index: true })],
      },
      lazyRoute(AppLayout, {
        path: '/app',
        children: [
          { index: true, element: <Navigate to={DEFAULT_LANDING} replace /> },
          lazyRoute(DashboardPage, { path: 'dashboard' }),
          lazyRoute(LicensesPage, { path: 'licenses' }),
          lazyRoute(SupportPage, { path: 'support' }),
          lazyRoute(DownloadIsoPage, { path: 'download-iso' }),
          lazyRoute(BillingPage, { path: 'billing' }),
          lazyRoute(ProfilePage, { path: 'profile' }),
          // A disabled menu entry, but a route of the layout: the address shows 'Coming soon'.
          lazyRoute(AccessControlPage, { path: 'access-control' }),
        ],
      }),
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

/**
 * Starts loading the code of every route `location` matches. Settles once each has loaded or
 * failed; a failure shows when the page renders (RouteErrorBoundary).
 */
export function preloadRoutes(location: string | Partial<Location>): Promise<unknown> {
  const matches = matchRoutes(routes, location) ?? [];
  const pages = matches.flatMap((m) => (m.route.handle as { page?: LazyPage } | undefined)?.page ?? []);
  return Promise.allSettled(pages.map((page) => page.preload()));
}

/**
 * The routes in the browser (React Router's declarative mode: docs/decisions/019). The code of
 * every route the address matches starts loading at once, and an error in a page shows a message
 * rather than an empty window.
 */
export function AppRoutes() {
  const location = useLocation();
  void preloadRoutes(location);
  const element = useRoutes(routes, location);
  return <RouteErrorBoundary location={location}>{element}</RouteErrorBoundary>;
}
