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
  { name: 'users', description: 'Onboarding, profile, personal API tokens, activity log, data export and account deletion' },
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
  success?: Success;
};

/** A success answer: its status and description. */
type Success = readonly [status: number, description: string];

/** Each tag's operations: `METHOD path` → operationId. */
const NAMES: Readonly<Record<ApiTag, Readonly<Record<string, string>>>> = {
  config: { 'GET /api/config': 'getConfig' },
  auth: {
    'POST /api/auth/link': 'requestLink',
    'GET /api/auth/link/{id}': 'redeemLink',
    'GET /api/auth/recipient/{id}': 'getLinkRecipient',
    'GET /api/auth/session': 'getSession',
    'GET /api/auth/logout': 'logout',
    'GET /api/auth/google/': 'startGoogleSignIn',
    'GET /api/auth/google/callback': 'completeGoogleSignIn',
  },
  users: {
    'POST /api/users/onboarding': 'completeOnboarding',
    'PATCH /api/users/profile': 'updateProfile',
    'GET /api/users/activity': 'listActivity',
    'GET /api/users/export': 'exportData',
    'DELETE /api/users/': 'deleteAccount',
    'GET /api/users/tokens': 'listApiTokens',
    'POST /api/users/tokens': 'createApiToken',
    'DELETE /api/users/tokens/{id}': 'revokeApiToken',
  },
  licenses: {
    'GET /api/licenses/': 'listLicenses',
    'GET /api/licenses/public-key': 'getPublicKey',
    'GET /api/licenses/{licenseKey}/nodes': 'listNodes',
    'DELETE /api/licenses/{licenseKey}/nodes/{id}': 'releaseNode',
    'POST /api/licenses/{licenseKey}/activate': 'activateLicense',
    'POST /api/licenses/{licenseKey}/validate': 'validateLicense',
    'GET /api/licenses/{licenseKey}/file': 'downloadLicenseFile',
  },
  billing: {
    'GET /api/billing/prices': 'listPrices',
    'GET /api/billing/details': 'getBillingDetails',
    'PUT /api/billing/details': 'updateBillingDetails',
    'GET /api/billing/methods/': 'listPaymentMethods',
    'DELETE /api/billing/methods/{id}': 'removePaymentMethod',
    'POST /api/billing/intents/setup': 'createSetupIntent',
    'POST /api/billing/local/confirm-setup': 'confirmLocalSetup',
    'POST /api/billing/intents/checkout': 'checkout',
    'GET /api/billing/checkout/preview': 'previewCheckout',
    'GET /api/billing/subscriptions/': 'listSubscriptions',
    'GET /api/billing/subscriptions/{stripeId}/invoices': 'listInvoices',
    'PATCH /api/billing/subscriptions/{stripeId}/': 'updateInterval',
    'DELETE /api/billing/subscriptions/{stripeId}/': 'cancelSubscription',
    'PUT /api/billing/subscriptions/{stripeId}/quantity': 'updateQuantity',
    'POST /api/billing/subscriptions/{stripeId}/reactivate': 'reactivateSubscription',
    'POST /api/billing/subscriptions/{stripeId}/preview': 'previewChange',
    'POST /api/billing/subscriptions/{stripeId}/pay': 'payOpenInvoice',
    // Served only with Stripe configured.
    'POST /api/billing/webhook': 'handleWebhook',
    'GET /api/billing/invoices/{id}': 'getInvoice',
    'GET /api/billing/invoices/{id}/pdf': 'getInvoicePdf',
    'GET /api/billing/credit-notes/{id}/pdf': 'getCreditNotePdf',
  },
  products: {
    'GET /api/products/support': 'getSupportInfo',
    'GET /api/products/licenses': 'getLicenseSummary',
    'GET /api/products/pce/download': 'getDownload',
    'GET /api/products/pce/files/{filename}': 'downloadProductFile',
    'HEAD /api/products/pce/files/{filename}': 'headProductFile',
    'GET /api/downloads/iso': 'downloadIso',
    'HEAD /api/downloads/iso': 'headIso',
  },
};

/** The success answer (status, description) of the operations whose schema declares none. */
const SUCCESS: Readonly<Record<string, Success>> = {
  'GET /api/auth/google/': [302, "Redirect to Google's sign-in page (Google sign-in configured)"],
  'GET /api/auth/google/callback': [303, 'Redirect into the app with a new session, or to /login with an error'],
  'DELETE /api/users/': [204, 'The account is deleted and the session ended'],
  'DELETE /api/licenses/{licenseKey}/nodes/{id}': [204, 'The node is released; another can be activated in its place'],
  'GET /api/billing/invoices/{id}': [200, 'The printable invoice page (HTML); on Stripe a 303 redirect to its hosted invoice'],
  'GET /api/billing/invoices/{id}/pdf': [
    200,
    'The invoice PDF (application/pdf); on Stripe a 303 redirect to its hosted invoice',
  ],
  'GET /api/billing/credit-notes/{id}/pdf': [200, 'The credit note PDF (application/pdf)'],
  'GET /api/products/pce/files/{filename}': [200, 'The file (206 with a Range header, 304 when the ETag matches)'],
  'HEAD /api/products/pce/files/{filename}': [200, "The file's headers: size, ETag, Accept-Ranges"],
  'GET /api/downloads/iso': [200, 'The newest ISO (206 with a Range header, 304 when the ETag matches); SHA-256 in Repr-Digest'],
  'HEAD /api/downloads/iso': [200, "The newest ISO's headers: size, ETag, Accept-Ranges, Repr-Digest"],
  'DELETE /api/users/tokens/{id}': [204, 'The token is revoked'],
};

export const OPERATIONS: Readonly<Record<string, OperationName>> = Object.fromEntries(
  Object.entries(NAMES).flatMap(([tag, names]) =>
    Object.entries(names).map(([key, operationId]) => {
      const success = SUCCESS[key];
      return [key, { operationId, tag: tag as ApiTag, ...(success && { success }) }];
    }),
  ),
);

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
