import type { SecondFactorState, StaffRole } from './console-auth';

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
  /**
   * The sessions still short of their second factor that may call it (`verify`: a factor to
   * confirm, `enroll`: none while the role requires one); every other route answers them 403
   * SECOND_FACTOR_REQUIRED.
   */
  pending?: readonly Exclude<SecondFactorState, 'ok'>[];
};

const VERIFY = ['verify'] as const;
const ENROLL = ['enroll'] as const;

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
  me: { method: 'GET', path: '/api/console/auth/me', roles: ALL, pending: ['verify', 'enroll'] },
  authOptions: { method: 'GET', path: '/api/console/auth/options', roles: PUBLIC },
  googleStart: { method: 'GET', path: '/api/console/auth/google', roles: PUBLIC },
  googleCallback: { method: 'GET', path: '/api/console/auth/google/callback', roles: PUBLIC },

  startPasskeyCheck: {
    method: 'POST',
    path: '/api/console/auth/second-factor/passkey/options',
    roles: ALL,
    pending: VERIFY,
  },
  checkPasskey: { method: 'POST', path: '/api/console/auth/second-factor/passkey', roles: ALL, pending: VERIFY },
  checkCode: { method: 'POST', path: '/api/console/auth/second-factor/code', roles: ALL, pending: VERIFY },
  listFactors: { method: 'GET', path: '/api/console/auth/factors', roles: ALL, pending: ENROLL },
  startPasskeyRegistration: {
    method: 'POST',
    path: '/api/console/auth/factors/passkey/options',
    roles: ALL,
    pending: ENROLL,
  },
  addPasskey: { method: 'POST', path: '/api/console/auth/factors/passkey', roles: ALL, pending: ENROLL },
  startTotpEnrollment: { method: 'POST', path: '/api/console/auth/factors/totp/options', roles: ALL, pending: ENROLL },
  addTotp: { method: 'POST', path: '/api/console/auth/factors/totp', roles: ALL, pending: ENROLL },
  removeFactor: { method: 'DELETE', path: '/api/console/auth/factors/:factorId', roles: ALL },
  regenerateRecoveryCodes: { method: 'POST', path: '/api/console/auth/recovery-codes', roles: ALL },

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
  resetStaffFactors: { method: 'POST', path: '/api/console/staff/:id/reset-factors', roles: OWNER },

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
  retryPayment: { method: 'POST', path: '/api/console/subscriptions/:subscriptionId/retry-payment', roles: BILLING },
  refundInvoice: { method: 'POST', path: '/api/console/invoices/:invoiceId/refund', roles: BILLING },
  creditInvoice: { method: 'POST', path: '/api/console/invoices/:invoiceId/credit', roles: BILLING },
  /** The customer's billing details, replaced with a reason (later invoices only). */
  updateCustomerBillingDetails: { method: 'POST', path: '/api/console/customers/:userId/billing-details', roles: BILLING },
  /** Tax collected by country and rate, reverse-charged sales and exports for a period (`format=csv`: a download). */
  getTaxReport: { method: 'GET', path: '/api/console/reports/tax', roles: BILLING },

  deleteCustomer: { method: 'POST', path: '/api/console/customers/:userId/delete', roles: OWNER },

  listStaffTokens: { method: 'GET', path: '/api/console/tokens', roles: OWNER },
  createStaffToken: { method: 'POST', path: '/api/console/tokens', roles: OWNER },
  revokeStaffToken: { method: 'DELETE', path: '/api/console/tokens/:tokenId', roles: OWNER },
  getConsoleApiDocs: { method: 'GET', path: '/api/console/docs', roles: ALL },
  // Outbound webhooks (docs/webhooks.md): owners manage the endpoints and read their delivery log.
  listWebhookEndpoints: { method: 'GET', path: '/api/console/webhooks', roles: OWNER },
  createWebhookEndpoint: { method: 'POST', path: '/api/console/webhooks', roles: OWNER },
  updateWebhookEndpoint: { method: 'PATCH', path: '/api/console/webhooks/:endpointId', roles: OWNER },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/api/console/webhooks/:endpointId', roles: OWNER },
  rotateWebhookSecret: { method: 'POST', path: '/api/console/webhooks/:endpointId/rotate-secret', roles: OWNER },
  listWebhookAttempts: { method: 'GET', path: '/api/console/webhooks/:endpointId/attempts', roles: OWNER },
  resendWebhook: { method: 'POST', path: '/api/console/webhooks/:endpointId/deliveries/:deliveryId/resend', roles: OWNER },
  /** An invoice of the built-in engine as its PDF (the customer's own document, byte for byte). */
  downloadInvoicePdf: { method: 'GET', path: '/api/console/invoices/:invoiceId/pdf', roles: ALL },
} as const satisfies Record<string, RouteEntry>;

export type ConsoleRouteId = keyof typeof CONSOLE_ROUTES;

/** May a session in second-factor state `state` call route `id`? (`ok`: whatever the role allows.) */
export function consoleOpenIn(state: SecondFactorState, id: ConsoleRouteId): boolean {
  if (state === 'ok') return true;
  const entry: RouteEntry = CONSOLE_ROUTES[id];
  return entry.roles === null || (entry.pending ?? []).includes(state);
}

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

/**
 * The routes a staff API token never calls, whatever its role (docs/decisions/096-staff-token-
 * principal.md): the second factor's steps and the member's own factors (a token has neither and
 * never stands in for one), the current member, the staff, and the tokens themselves.
 */
export const CONSOLE_SESSION_ONLY: readonly ConsoleRouteId[] = [
  'me',
  'startPasskeyCheck',
  'checkPasskey',
  'checkCode',
  'listFactors',
  'startPasskeyRegistration',
  'addPasskey',
  'startTotpEnrollment',
  'addTotp',
  'removeFactor',
  'regenerateRecoveryCodes',
  'listStaff',
  'addStaff',
  'updateStaff',
  'removeStaff',
  'resetStaffFactors',
  'listStaffTokens',
  'createStaffToken',
  'revokeStaffToken',
];

/** May a staff API token with `role` call route `id`? (Sign-in routes ignore credentials.) */
export function consoleTokenMay(role: StaffRole, id: ConsoleRouteId): boolean {
  return !CONSOLE_SESSION_ONLY.includes(id) && consoleMay(role, id);
}
