import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { RequireStaff } from './layouts/require-staff';
import { PageSkeleton } from './layouts/page-skeleton';

/** A page loaded on first visit; the shell stays while its code arrives. */
function page(component: LazyExoticComponent<ComponentType>) {
  const Page = component;
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Page />
    </Suspense>
  );
}

const LoginPage = lazy(() => import('../features/auth/components/login-page'));
const ConsoleShell = lazy(() => import('./layouts/console-shell'));
const OverviewPage = lazy(() => import('../features/overview/components/overview-page'));
const CustomerPage = lazy(() => import('../features/customers/components/customer-page'));
const CustomersPage = lazy(() => import('../features/lists/components/customers-page'));
const SubscriptionsPage = lazy(() => import('../features/lists/components/subscriptions-page'));
const LicensesPage = lazy(() => import('../features/lists/components/licenses-page'));
const InvoicesPage = lazy(() => import('../features/lists/components/invoices-page'));
const TaxReportPage = lazy(() => import('../features/reports/components/tax-report-page'));
const AuditPage = lazy(() => import('../features/audit/components/audit-page'));
const StaffPage = lazy(() => import('../features/staff/components/staff-page'));
const SecurityPage = lazy(() => import('../features/security/components/security-page'));
const ApiTokensPage = lazy(() => import('../features/staff/components/api-tokens-page'));
const WebhooksPage = lazy(() => import('../features/webhooks/components/webhooks-page'));
const DeliveryLogPage = lazy(() => import('../features/webhooks/components/delivery-log-page'));

/** The console's route table: /login, then the signed-in shell; any other path goes to the overview. */
export const routes: RouteObject[] = [
  {
    path: '/login',
    element: (
      <Suspense fallback={null}>
        <LoginPage />
      </Suspense>
    ),
  },
  {
    element: (
      <RequireStaff>
        <Suspense fallback={null}>
          <ConsoleShell />
        </Suspense>
      </RequireStaff>
    ),
    children: [
      { path: '/overview', element: page(OverviewPage) },
      { path: '/customers', element: page(CustomersPage) },
      { path: '/customers/:userId', element: page(CustomerPage) },
      { path: '/subscriptions', element: page(SubscriptionsPage) },
      { path: '/licenses', element: page(LicensesPage) },
      { path: '/invoices', element: page(InvoicesPage) },
      { path: '/reports/tax', element: page(TaxReportPage) },
      { path: '/audit', element: page(AuditPage) },
      { path: '/staff', element: page(StaffPage) },
      { path: '/security', element: page(SecurityPage) },
      { path: '/api-tokens', element: page(ApiTokensPage) },
      { path: '/webhooks', element: page(WebhooksPage) },
      { path: '/webhooks/:endpointId', element: page(DeliveryLogPage) },
    ],
  },
  { path: '*', element: <Navigate to="/overview" replace /> },
];

export function AppRoutes() {
  return useRoutes(routes);
}
