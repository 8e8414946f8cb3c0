import type { StaffRole } from './console-auth';

const ALL: readonly StaffRole[] = ['owner', 'support', 'billing'];
const OWNER: readonly StaffRole[] = ['owner'];
const SUPPORT: readonly StaffRole[] = ['owner', 'support'];
const BILLING: readonly StaffRole[] = ['owner', 'billing'];
/** Reachable without a staff session (sign-in itself). */
const PUBLIC = null;

type RouteEntry = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify-style path; `:name` is a path parameter. */
  path: string;
  /** Roles allowed; `null` for the sign-in routes that need no session. */
  roles: readonly StaffRole[] | null;
};

/**
 * Every console route: its id (one name in every layer), method, path and the staff roles that
 * may call it. The server registers routes from it and checks the role; the authorization test
 * is generated from it; the console app builds its URLs from it and shows only the actions the
 * signed-in role may take (`consoleMay`).
 *
 * Actions (POST with `{ reason, … }`) answer 200 with the changed resource; lists take
 * `?page&size&sort&order` plus their filters and `format=csv` for a CSV download.
 */
export const CONSOLE_ROUTES = {
  requestLink: { method: 'POST', path: '/api/console/auth/link', roles: PUBLIC },
  exchangeLink: { method: 'POST', path: '/api/console/auth/link/:id', roles: PUBLIC },
  signOut: { method: 'POST', path: '/api/console/auth/logout', roles: PUBLIC },
  me: { method: 'GET', path: '/api/console/auth/me', roles: ALL },
  authOptions: { method: 'GET', path: '/api/console/auth/options', roles: PUBLIC },
  googleStart: { method: 'GET', path: '/api/console/auth/google', roles: PUBLIC },
  googleCallback: { method: 'GET', path: '/api/console/auth/google/callback', roles: PUBLIC },

  search: { method: 'GET', path: '/api/console/search', roles: ALL },
  getCustomer: { method: 'GET', path: '/api/console/customers/:userId', roles: ALL },
  getOverview: { method: 'GET', path: '/api/console/overview', roles: ALL },
  listCustomers: { method: 'GET', path: '/api/console/customers', roles: ALL },
  listSubscriptions: { method: 'GET', path: '/api/console/subscriptions', roles: ALL },
  listLicenses: { method: 'GET', path: '/api/console/licenses', roles: ALL },
  listInvoices: { method: 'GET', path: '/api/console/invoices', roles: ALL },
  listStaffAudit: { method: 'GET', path: '/api/console/audit', roles: ALL },

  listStaff: { method: 'GET', path: '/api/console/staff', roles: OWNER },
  addStaff: { method: 'POST', path: '/api/console/staff', roles: OWNER },
  updateStaff: { method: 'PATCH', path: '/api/console/staff/:id', roles: OWNER },
  removeStaff: { method: 'DELETE', path: '/api/console/staff/:id', roles: OWNER },

  suspendLicense: { method: 'POST', path: '/api/console/licenses/:licenseKey/suspend', roles: SUPPORT },
  resumeLicense: { method: 'POST', path: '/api/console/licenses/:licenseKey/resume', roles: SUPPORT },
  extendLicense: { method: 'POST', path: '/api/console/licenses/:licenseKey/extend', roles: SUPPORT },
  releaseNode: { method: 'POST', path: '/api/console/licenses/:licenseKey/nodes/:nodeId/release', roles: SUPPORT },
  issueLicense: { method: 'POST', path: '/api/console/customers/:userId/licenses', roles: SUPPORT },
  sendSignInLink: { method: 'POST', path: '/api/console/customers/:userId/sign-in-link', roles: SUPPORT },
  endSessions: { method: 'POST', path: '/api/console/customers/:userId/end-sessions', roles: SUPPORT },

  cancelAtPeriodEnd: {
    method: 'POST',
    path: '/api/console/subscriptions/:subscriptionId/cancel-at-period-end',
    roles: BILLING,
  },
  reactivateSubscription: {
    method: 'POST',
    path: '/api/console/subscriptions/:subscriptionId/reactivate',
    roles: BILLING,
  },
  cancelNow: { method: 'POST', path: '/api/console/subscriptions/:subscriptionId/cancel-now', roles: BILLING },
  refundInvoice: { method: 'POST', path: '/api/console/invoices/:invoiceId/refund', roles: BILLING },
  creditInvoice: { method: 'POST', path: '/api/console/invoices/:invoiceId/credit', roles: BILLING },

  deleteCustomer: { method: 'POST', path: '/api/console/customers/:userId/delete', roles: OWNER },
} as const satisfies Record<string, RouteEntry>;

export type ConsoleRouteId = keyof typeof CONSOLE_ROUTES;

/** May a staff member with `role` call route `id`? (Sign-in routes: always.) */
export function consoleMay(role: StaffRole, id: ConsoleRouteId): boolean {
  const roles: readonly StaffRole[] | null = CONSOLE_ROUTES[id].roles;
  return roles === null || roles.includes(role);
}

/** A route's path with its parameters filled in: `consolePath('getCustomer', { userId })`. */
export function consolePath(id: ConsoleRouteId, params: Record<string, string> = {}): string {
  return CONSOLE_ROUTES[id].path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`consolePath(${id}) needs "${name}"`);
    return encodeURIComponent(value);
  });
}
