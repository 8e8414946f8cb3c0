/**
 * The name of every API operation, in one table. An endpoint keeps one name in every layer: the
 * `operationId` here is the web app's RTK Query endpoint (`listInvoices` → `useListInvoicesQuery`)
 * and the server's service method where one exists, so one grep finds all of it. Operations the
 * web app does not call are named the same way (verb + noun, camelCase).
 *
 * Keys are `METHOD path` as the served OpenAPI document writes them. A route that is missing here
 * is served without a name, and apps/server/src/plugins/openapi.test.ts fails.
 */

export type ApiTag = 'config' | 'auth' | 'users' | 'licenses' | 'billing' | 'products';

/** The document's global tags, in the order the API reference lists them. */
export const API_TAGS: readonly { name: ApiTag; description: string }[] = [
  { name: 'config', description: 'What the web app needs before sign-in' },
  { name: 'auth', description: 'Sign-in with an e-mailed link or with Google, the session, sign-out' },
  { name: 'users', description: 'Onboarding, profile, activity log, data export and account deletion' },
  { name: 'licenses', description: 'License keys, their nodes, activation and validation by the product' },
  { name: 'billing', description: 'Prices, cards, subscriptions and invoices' },
  { name: 'products', description: 'Dashboard figures, support information and the ISO download' },
];

export type OperationName = {
  operationId: string;
  tag: ApiTag;
  /**
   * The success answer, for routes whose schema declares none (a redirect, a 204, a file); routes
   * with a 2xx response schema keep theirs.
   */
  success?: { status: number; description: string };
};

const op = (operationId: string, tag: ApiTag, success?: OperationName['success']): OperationName => ({
  operationId,
  tag,
  ...(success ? { success } : {}),
});

export const OPERATIONS: Readonly<Record<string, OperationName>> = {
  'GET /api/config': op('getConfig', 'config'),

  'POST /api/auth/link': op('requestLink', 'auth'),
  'GET /api/auth/link/{id}': op('redeemLink', 'auth'),
  'GET /api/auth/recipient/{id}': op('getLinkRecipient', 'auth'),
  'GET /api/auth/session': op('getSession', 'auth'),
  'GET /api/auth/logout': op('logout', 'auth'),
  'GET /api/auth/google/': op('startGoogleSignIn', 'auth', {
    status: 302,
    description: "Redirect to Google's sign-in page (Google sign-in configured)",
  }),
  'GET /api/auth/google/callback': op('completeGoogleSignIn', 'auth', {
    status: 303,
    description: 'Redirect into the app with a new session, or to /login with an error',
  }),

  'POST /api/users/onboarding': op('completeOnboarding', 'users'),
  'PATCH /api/users/profile': op('updateProfile', 'users'),
  'GET /api/users/activity': op('listActivity', 'users'),
  'GET /api/users/export': op('exportData', 'users'),
  'DELETE /api/users/': op('deleteAccount', 'users', {
    status: 204,
    description: 'The account is deleted and the session ended',
  }),

  'GET /api/licenses/': op('listLicenses', 'licenses'),
  'GET /api/licenses/public-key': op('getPublicKey', 'licenses'),
  'GET /api/licenses/{licenseKey}/nodes': op('listNodes', 'licenses'),
  'DELETE /api/licenses/{licenseKey}/nodes/{id}': op('releaseNode', 'licenses', {
    status: 204,
    description: 'The node is released and its slot free',
  }),
  'POST /api/licenses/{licenseKey}/activate': op('activateLicense', 'licenses'),
  'POST /api/licenses/{licenseKey}/validate': op('validateLicense', 'licenses'),
  'GET /api/licenses/{licenseKey}/file': op('downloadLicenseFile', 'licenses'),

  'GET /api/billing/prices': op('listPrices', 'billing'),
  'GET /api/billing/methods/': op('listPaymentMethods', 'billing'),
  'DELETE /api/billing/methods/{id}': op('removePaymentMethod', 'billing'),
  'POST /api/billing/intents/setup': op('createSetupIntent', 'billing'),
  'POST /api/billing/local/confirm-setup': op('confirmLocalSetup', 'billing'),
  'POST /api/billing/intents/checkout': op('checkout', 'billing'),
  'GET /api/billing/subscriptions/': op('listSubscriptions', 'billing'),
  'GET /api/billing/subscriptions/{stripeId}/invoices': op('listInvoices', 'billing'),
  'PATCH /api/billing/subscriptions/{stripeId}/': op('updateInterval', 'billing'),
  'DELETE /api/billing/subscriptions/{stripeId}/': op('cancelSubscription', 'billing'),
  'PUT /api/billing/subscriptions/{stripeId}/quantity': op('updateQuantity', 'billing'),
  'POST /api/billing/subscriptions/{stripeId}/reactivate': op('reactivateSubscription', 'billing'),
  'POST /api/billing/subscriptions/{stripeId}/preview': op('previewChange', 'billing'),
  // Served only with Stripe configured.
  'POST /api/billing/webhook': op('handleWebhook', 'billing'),
  'GET /api/billing/invoices/{id}': op('getInvoice', 'billing', {
    status: 200,
    description: 'The printable invoice page (HTML); on Stripe a 303 redirect to its hosted invoice',
  }),

  'GET /api/products/support': op('getSupportInfo', 'products'),
  'GET /api/products/licenses': op('getLicenseSummary', 'products'),
  'GET /api/products/pce/download': op('getDownload', 'products'),
  'GET /api/products/pce/files/{filename}': op('downloadProductFile', 'products', {
    status: 200,
    description: 'The file (206 with a Range header, 304 when the ETag matches)',
  }),
  'HEAD /api/products/pce/files/{filename}': op('headProductFile', 'products', {
    status: 200,
    description: "The file's headers: size, ETag, Accept-Ranges",
  }),
};

/**
 * The second spelling of a path the specification writes with (or without) a trailing slash: the
 * route answers both, the document shows the specification's one only, under one name.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  'GET /api/auth/google': 'GET /api/auth/google/',
  'DELETE /api/users': 'DELETE /api/users/',
  'GET /api/billing/methods': 'GET /api/billing/methods/',
  'GET /api/billing/subscriptions': 'GET /api/billing/subscriptions/',
  'PATCH /api/billing/subscriptions/{stripeId}': 'PATCH /api/billing/subscriptions/{stripeId}/',
  'DELETE /api/billing/subscriptions/{stripeId}': 'DELETE /api/billing/subscriptions/{stripeId}/',
};
