import type { ConsoleRouteId } from '@portal/contract';
import type { ConsoleFixtures } from './fixtures';

export type Sample = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };

const reason = { reason: 'Customer asked on ticket #4711' };

/**
 * For each console route behind a role (the sign-in routes, public, have tests of their own): a request that succeeds (`ok`, made fresh for each call
 * when the action can only happen once), and one with bad input (`bad`, 400) where the route takes
 * any. The authorization matrix runs every route of CONSOLE_ROUTES through these.
 */
export const SAMPLES: Record<
  Exclude<ConsoleRouteId, 'requestLink' | 'exchangeLink' | 'signOut' | 'authOptions' | 'googleStart' | 'googleCallback'>,
  { ok: (fx: ConsoleFixtures) => Promise<Sample> | Sample; bad?: (fx: ConsoleFixtures) => Sample; status?: number }
> = {
  me: { ok: () => ({}) },

  // The second factor's own routes: the matrix's members have no factor (their role needs none in
  // the matrix's configuration), so these get through the guard to the service's answer for a
  // member without one. second-factor.test.ts takes them through with real factors.
  startPasskeyCheck: { ok: () => ({}), status: 409 },
  checkPasskey: {
    ok: () => ({ body: { response: { id: 'unknown', type: 'public-key', rawId: 'unknown', response: {} } } }),
    bad: () => ({ body: { response: { id: 'x', type: 'password' } } }),
    status: 409,
  },
  checkCode: { ok: () => ({ body: { code: '123456' } }), bad: () => ({ body: { code: '1' } }), status: 400 },
  listFactors: { ok: () => ({}) },
  startPasskeyRegistration: { ok: () => ({}) },
  addPasskey: {
    ok: () => ({ body: { label: 'Laptop', response: { id: 'unknown', type: 'public-key', rawId: 'unknown', response: {} } } }),
    bad: () => ({ body: { label: '', response: { id: 'x', type: 'public-key' } } }),
    // startPasskeyRegistration's sample ran first in the same session: its challenge is not answered.
    status: 400,
  },
  startTotpEnrollment: { ok: () => ({}) },
  addTotp: {
    ok: () => ({ body: { label: 'Phone', code: '123456' } }),
    bad: () => ({ body: { label: 'Phone', code: 'abcdef' } }),
    // startTotpEnrollment's sample ran first in the same session: a wrong code for its secret.
    status: 400,
  },
  removeFactor: {
    ok: () => ({ params: { factorId: '00000000-0000-4000-8000-000000000000' } }),
    bad: () => ({ params: { factorId: 'not-an-id' } }),
    status: 404,
  },
  regenerateRecoveryCodes: { ok: () => ({}), status: 409 },
  search: { ok: () => ({ query: { q: 'console-a' } }), bad: () => ({ query: { q: 'x' } }) },
  getCustomer: { ok: (fx) => ({ params: { userId: fx.userId } }), bad: () => ({ params: { userId: 'not-an-id' } }) },
  getOverview: { ok: () => ({}), bad: () => ({ query: { extra: '1' } }) },
  listCustomers: { ok: () => ({ query: { sort: 'email' } }), bad: () => ({ query: { sort: 'password' } }) },
  listSubscriptions: { ok: () => ({ query: { status: 'active' } }), bad: () => ({ query: { status: 'maybe' } }) },
  listLicenses: { ok: () => ({ query: { expiringWithinDays: '60' } }), bad: () => ({ query: { size: '1000' } }) },
  listInvoices: { ok: () => ({ query: { status: 'paid' } }), bad: () => ({ query: { order: 'sideways' } }) },
  listStaffAudit: { ok: () => ({}), bad: () => ({ query: { page: '0' } }) },

  listStaff: { ok: () => ({}) },
  addStaff: {
    ok: (fx) => ({ body: { email: fx.freshEmail(), role: 'billing', ...reason } }),
    bad: () => ({ body: { email: 'x@vendor.example', role: 'admin', ...reason } }),
    status: 201,
  },
  updateStaff: {
    ok: async (fx) => ({ params: { id: await fx.staffMember() }, body: { role: 'billing', ...reason } }),
    bad: (fx) => ({ params: { id: fx.userId }, body: { role: 'billing' } }),
  },
  removeStaff: {
    ok: async (fx) => ({ params: { id: await fx.staffMember() }, body: reason }),
    bad: (fx) => ({ params: { id: fx.userId }, body: { reason: ' ' } }),
    status: 204,
  },
  resetStaffFactors: {
    ok: async (fx) => ({ params: { id: await fx.staffMember() }, body: reason }),
    bad: (fx) => ({ params: { id: fx.userId }, body: {} }),
    status: 204,
  },

  suspendLicense: {
    ok: async (fx) => ({ params: { licenseKey: await fx.license() }, body: reason }),
    bad: (fx) => ({ params: { licenseKey: fx.a.ids.licenseKey! }, body: { reason: '   ' } }),
  },
  resumeLicense: {
    ok: async (fx) => ({ params: { licenseKey: await fx.suspendedLicense() }, body: reason }),
    bad: (fx) => ({ params: { licenseKey: fx.a.ids.licenseKey! }, body: {} }),
  },
  extendLicense: {
    ok: (fx) => ({ params: { licenseKey: fx.a.ids.licenseKey! }, body: { ...reason, days: 30 } }),
    bad: (fx) => ({ params: { licenseKey: fx.a.ids.licenseKey! }, body: { ...reason, days: 3651 } }),
  },
  releaseNode: {
    ok: async (fx) => ({ params: await fx.node(), body: reason }),
    bad: (fx) => ({ params: { licenseKey: fx.a.ids.licenseKey!, nodeId: 'not-a-node' }, body: reason }),
  },
  issueLicense: {
    ok: (fx) => ({ params: { userId: fx.userId }, body: { ...reason, maxNodes: 2, days: 30 } }),
    bad: (fx) => ({ params: { userId: fx.userId }, body: { ...reason, maxNodes: 0, days: 30 } }),
  },
  sendSignInLink: {
    ok: (fx) => ({ params: { userId: fx.userId }, body: reason }),
    bad: (fx) => ({ params: { userId: fx.userId }, body: { reason: 'x'.repeat(501) } }),
  },
  endSessions: {
    ok: async (fx) => ({ params: { userId: await fx.customer() }, body: reason }),
    bad: (fx) => ({ params: { userId: fx.userId }, body: { reason: 'ok', extra: true } }),
  },
  cancelAtPeriodEnd: {
    ok: async (fx) => ({ params: { subscriptionId: await fx.subscription() }, body: reason }),
    bad: (fx) => ({ params: { subscriptionId: fx.a.ids.stripeId! }, body: { reason: 'a\u0000b' } }),
  },
  reactivateSubscription: {
    ok: async (fx) => ({ params: { subscriptionId: await fx.cancelledSubscription() }, body: reason }),
    bad: (fx) => ({ params: { subscriptionId: fx.a.ids.stripeId! }, body: { reason: 42 } }),
  },
  cancelNow: {
    ok: async (fx) => ({ params: { subscriptionId: await fx.subscription() }, body: reason }),
    bad: (fx) => ({ params: { subscriptionId: fx.a.ids.stripeId! }, body: {} }),
  },
  retryPayment: {
    ok: async (fx) => ({ params: { subscriptionId: await fx.pastDueSubscription() }, body: reason }),
    bad: (fx) => ({ params: { subscriptionId: fx.a.ids.stripeId! }, body: { reason: '' } }),
  },
  refundInvoice: {
    ok: async (fx) => ({ params: { invoiceId: await fx.paidInvoice() }, body: reason }),
    bad: (fx) => ({ params: { invoiceId: fx.a.ids.invoiceId! }, body: { ...reason, amount: -5 } }),
  },
  creditInvoice: {
    ok: async (fx) => ({ params: { invoiceId: await fx.paidInvoice() }, body: { ...reason, amount: 500 } }),
    bad: (fx) => ({ params: { invoiceId: fx.a.ids.invoiceId! }, body: { ...reason, amount: 0.5 } }),
  },
  updateCustomerBillingDetails: {
    ok: (fx) => ({
      params: { userId: fx.userId },
      body: {
        ...reason,
        details: { legalName: 'Acme GmbH', country: 'DE', line1: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin' },
      },
    }),
    // An address in the United States needs a state: the customer's own form's rule.
    bad: (fx) => ({ params: { userId: fx.userId }, body: { ...reason, details: { country: 'US', city: 'Boston' } } }),
  },
  getTaxReport: {
    ok: () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }),
    bad: () => ({ query: { from: '2026-12-31', to: '2026-01-01' } }),
  },
  deleteCustomer: {
    ok: async (fx) => ({ params: { userId: await fx.customer() }, body: reason }),
    bad: (fx) => ({ params: { userId: fx.userId }, body: { reason: '' } }),
  },

  listStaffTokens: { ok: () => ({}) },
  createStaffToken: {
    ok: () => ({ body: { name: 'CRM sync', role: 'support', expiresInDays: 30, ...reason } }),
    bad: () => ({ body: { name: 'CRM sync', role: 'support', expiresInDays: 366, ...reason } }),
    status: 201,
  },
  revokeStaffToken: {
    ok: async (fx) => ({ params: { tokenId: await fx.staffTokenId() }, body: reason }),
    bad: () => ({ params: { tokenId: 'not-an-id' }, body: reason }),
    status: 204,
  },
  getConsoleApiDocs: { ok: () => ({}) },
  listWebhookEndpoints: { ok: () => ({}) },
  createWebhookEndpoint: {
    ok: () => ({ body: { url: 'https://hooks.example.com/portal', eventTypes: ['license.issued'], ...reason } }),
    bad: () => ({ body: { url: 'ftp://hooks.example.com/portal', ...reason } }),
    status: 201,
  },
  updateWebhookEndpoint: {
    ok: async (fx) => ({ params: { endpointId: await fx.webhookEndpoint() }, body: { description: 'CRM', ...reason } }),
    bad: () => ({
      params: { endpointId: '00000000-0000-4000-8000-000000000001' },
      body: { eventTypes: ['license.stolen'], ...reason },
    }),
  },
  deleteWebhookEndpoint: {
    ok: async (fx) => ({ params: { endpointId: await fx.webhookEndpoint() }, body: reason }),
    bad: () => ({ params: { endpointId: 'not-an-id' }, body: reason }),
    status: 204,
  },
  rotateWebhookSecret: {
    ok: async (fx) => ({ params: { endpointId: await fx.webhookEndpoint() }, body: { overlapHours: 24, ...reason } }),
    bad: () => ({ params: { endpointId: '00000000-0000-4000-8000-000000000001' }, body: { overlapHours: 1000, ...reason } }),
  },
  listWebhookAttempts: {
    ok: async (fx) => ({ params: { endpointId: await fx.webhookEndpoint() } }),
    bad: () => ({ params: { endpointId: '00000000-0000-4000-8000-000000000001' }, query: { size: '1000' } }),
  },
  resendWebhook: {
    ok: async (fx) => ({ params: await fx.webhookDelivery(), body: reason }),
    bad: () => ({ params: { endpointId: '00000000-0000-4000-8000-000000000001', deliveryId: '1' }, body: {} }),
    status: 202,
  },
  downloadInvoicePdf: {
    ok: async (fx) => ({ params: { invoiceId: await fx.paidInvoice() } }),
    bad: () => ({ params: { invoiceId: 'x'.repeat(300) } }),
  },
};
