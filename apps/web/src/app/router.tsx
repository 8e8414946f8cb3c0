import { DEFAULT_LANDING } from '@portal/contract';
import { Navigate, type RouteObject } from 'react-router';
import { Root } from './root';
import { PublicLayout } from './layouts/public-layout';
import { OnboardingGate } from './layouts/onboarding-gate';

/**
 * The routes of the specification (section 2). Pages, and the signed-in layout, load lazily:
 * the router keeps the current screen while the next one loads, and the progress bar
 * (router-progress.tsx) shows at the top meanwhile.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    HydrateFallback: () => null,
    children: [
      {
        element: <PublicLayout />,
        children: [
          {
            path: '/login',
            lazy: async () => ({ Component: (await import('../features/auth/components/login-page')).LoginPage }),
          },
          {
            path: '/signup',
            lazy: async () => ({ Component: (await import('../features/auth/components/signup-page')).SignUpPage }),
          },
        ],
      },
      {
        path: '/onboarding',
        element: <OnboardingGate />,
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('../features/onboarding/components/onboarding-page')).OnboardingPage,
            }),
          },
        ],
      },
      {
        path: '/app',
        lazy: async () => ({ Component: (await import('./layouts/app-layout')).AppLayout }),
        children: [
          { index: true, element: <Navigate to={DEFAULT_LANDING} replace /> },
          {
            path: 'dashboard',
            lazy: async () => ({
              Component: (await import('./dashboard/dashboard-page')).DashboardPage,
            }),
          },
          {
            path: 'licenses',
            lazy: async () => ({ Component: (await import('../features/licenses/components/licenses-page')).LicensesPage }),
          },
          {
            path: 'support',
            lazy: async () => ({ Component: (await import('../features/support/components/support-page')).SupportPage }),
          },
          {
            path: 'download-iso',
            lazy: async () => ({
              Component: (await import('../features/downloads/components/download-iso-page')).DownloadIsoPage,
            }),
          },
          {
            path: 'billing',
            lazy: async () => ({ Component: (await import('../features/billing/components/billing-page')).BillingPage }),
          },
          {
            path: 'profile',
            lazy: async () => ({ Component: (await import('../features/profile/components/profile-page')).ProfilePage }),
          },
        ],
      },
      // Any other path, /app/access-control included (a disabled menu entry, not a page).
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];
