import { z } from 'zod';
import {
  ActivateBodySchema,
  ApiTokenParamsSchema,
  CreateApiTokenBodySchema,
  SessionQuerySchema,
  CheckoutBodySchema,
  CheckoutPreviewQuerySchema,
  UpdateBillingDetailsBodySchema,
  DeleteAccountQuerySchema,
  DownloadFileParamsSchema,
  DownloadFileQuerySchema,
  DownloadQuerySchema,
  GoogleStartQuerySchema,
  InvoiceParamsSchema,
  LicenseKeyParamsSchema,
  LinkIdParamsSchema,
  LocalConfirmSetupBodySchema,
  MethodParamsSchema,
  NodeParamsSchema,
  OnboardingBodySchema,
  PageQuerySchema,
  PayOpenInvoiceBodySchema,
  PreviewChangeBodySchema,
  RequestLinkBodySchema,
  SubscriptionParamsSchema,
  UpdateIntervalBodySchema,
  UpdateProfileBodySchema,
  UpdateQuantityBodySchema,
  ValidateBodySchema,
} from '@portal/contract';
import { valid, type FuzzIds, type Gen } from './arbitraries';

/**
 * Every route of the application, with who may call it and what it takes. This table is the single
 * source of the bad-input properties and of the authorization matrix; `route-table.test.ts` fails,
 * naming the route, when the application gains a route this table does not list (or loses one).
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * owner     a signed-in customer, and the resource named in the path must be theirs (else 404)
 * session   any signed-in customer (else 401)
 * public    nobody needs to be signed in; `why` says what stands in for a session, if anything
 * signature an HMAC-signed, expiring URL is the credential
 * webhook   the payment provider's signature over the raw body is the credential
 */
export type Access = 'owner' | 'session' | 'public' | 'signature' | 'webhook';
export type Resource = 'license' | 'node' | 'subscription' | 'paymentMethod' | 'invoice';

/** One part of a request: the contract's schema (the oracle) and a generator of valid values. */
export type Part = { schema: z.ZodType; valid: Gen };

/** A concrete valid request, for the matrix: path parameters, query, JSON body, headers. */
export type Sample = {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
};

export type RouteEntry = {
  method: Method;
  /** As registered (Fastify syntax); a GET route answers HEAD too. */
  url: string;
  access: Access;
  /** Owner routes: the resources the path names. */
  owns?: readonly Resource[];
  /** Non-session routes: what stands in for a session. */
  why?: string;
  /** Registered only with this billing provider. */
  billing?: 'local' | 'stripe';
  /** Takes its inputs (and answers anything but 404) only when Google sign-in is configured. */
  google?: true;
  params?: Part;
  query?: Part;
  body?: Part;
  headers?: Part;
  /** The route's body limit in bytes (the app's default is 16 KiB). */
  bodyLimit?: number;
  /** A valid request ends the fuzzing customer's session or account: only rejected cases are sent. */
  destructive?: true;
  /**
   * The owner's answer to `sample` when it is not a success: the route let the owner through to a
   * rule of the resource's state (paying a subscription that owes nothing is a 409).
   */
  ownerStatus?: number;
  /** For the authorization matrix: one valid request (owner routes: on the owner's resources). */
  sample?: (ids: FuzzIds) => Sample;
  /** Which bad-input test file fuzzes it (routes without inputs are fuzzed for transport only). */
  fuzz?: FuzzGroup;
};

/** The bad-input test file of a route: bad-input-accounts, bad-input-billing, bad-input-stripe-webhook. */
export type FuzzGroup = 'accounts' | 'billing' | 'stripe';

export const SMALL_BODY = 16 * 1024;
const APP_BODY_LIMIT = 16 * 1024;

/** Mirrors the Idempotency-Key header schema of billing.routes.ts (not exported by the contract). */
export const CheckoutHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{8,255}$/)
    .optional(),
});

/** validate takes no body at all, `null`, or the object. */
export const ValidateBodyOrNoneSchema = ValidateBodySchema.nullish();

/** The swagger-ui static files: a wildcard path parameter named `*`. */
const DocsParamsSchema = z.object({ '*': z.string() });

const p = (schema: z.ZodType, gen: Gen): Part => ({ schema, valid: gen });

export const ROUTES: readonly RouteEntry[] = [
  // Operations and documentation
  { method: 'GET', url: '/api/health/live', access: 'public', why: 'load-balancer liveness' },
  { method: 'GET', url: '/api/health/ready', access: 'public', why: 'load-balancer readiness' },
  { method: 'GET', url: '/metrics', access: 'public', why: 'loopback or METRICS_TOKEN only; 404 otherwise' },
  { method: 'GET', url: '/api/docs', access: 'public', why: 'API documentation' },
  { method: 'GET', url: '/api/docs/', access: 'public', why: 'API documentation' },
  { method: 'GET', url: '/api/docs/json', access: 'public', why: 'API documentation' },
  { method: 'GET', url: '/api/docs/yaml', access: 'public', why: 'API documentation' },
  { method: 'GET', url: '/api/docs/static/index.html', access: 'public', why: 'API documentation' },
  { method: 'GET', url: '/api/docs/static/swagger-initializer.js', access: 'public', why: 'API documentation' },
  {
    method: 'GET',
    url: '/api/docs/*',
    access: 'public',
    why: 'API documentation assets',
    params: p(DocsParamsSchema, valid.docsParams),
    fuzz: 'accounts',
  },

  // auth
  { method: 'GET', url: '/api/config', access: 'public', why: 'what the sign-in page needs' },
  {
    method: 'POST',
    url: '/api/auth/link',
    access: 'public',
    why: 'requests a sign-in link; answers the same whether or not the address is known',
    body: p(RequestLinkBodySchema, valid.requestLinkBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { email: 'matrix-visitor@example.com' } }),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/auth/link/:id',
    access: 'public',
    why: 'the 256-bit link secret is the credential',
    params: p(LinkIdParamsSchema, valid.linkIdParams),
    sample: () => ({ params: { id: 'A'.repeat(43) } }),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/auth/recipient/:id',
    access: 'public',
    why: 'the 256-bit link secret is the credential; answers only the address of a usable link',
    params: p(LinkIdParamsSchema, valid.linkIdParams),
    sample: () => ({ params: { id: 'A'.repeat(43) } }),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/auth/session',
    access: 'session',
    fuzz: 'accounts',
    query: p(SessionQuerySchema, valid.sessionQuery),
  },
  { method: 'GET', url: '/api/auth/logout', access: 'public', why: 'ends the session if there is one', destructive: true },
  ...(['/api/auth/google', '/api/auth/google/'] as const).map((url): RouteEntry => ({
    method: 'GET',
    url,
    access: 'public',
    why: 'starts sign-in with Google',
    google: true,
    query: p(GoogleStartQuerySchema, valid.googleStartQuery),
    fuzz: 'accounts',
  })),
  {
    method: 'GET',
    url: '/api/auth/google/callback',
    access: 'public',
    why: 'the sealed single-use flow cookie and the provider’s code are the credential',
    google: true,
    // Loose on purpose (providers add parameters): the oracle accepts any query.
    query: p(z.looseObject({}), valid.googleCallbackQuery),
    fuzz: 'accounts',
  },

  // users
  {
    method: 'POST',
    url: '/api/users/onboarding',
    access: 'session',
    body: p(OnboardingBodySchema, valid.profileBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { fname: 'Ann', lname: 'Other' } }),
    fuzz: 'accounts',
  },
  {
    method: 'PATCH',
    url: '/api/users/profile',
    access: 'session',
    body: p(UpdateProfileBodySchema, valid.profileBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { fname: 'Ann', lname: 'Other' } }),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/users/activity',
    access: 'session',
    query: p(PageQuerySchema, valid.pageQuery),
    fuzz: 'accounts',
  },
  { method: 'GET', url: '/api/users/export', access: 'session' },
  { method: 'GET', url: '/api/users/tokens', access: 'session' },
  {
    method: 'POST',
    url: '/api/users/tokens',
    access: 'session',
    body: p(CreateApiTokenBodySchema, valid.createApiTokenBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { name: 'matrix', scopes: ['licenses:read'], expiresInDays: null } }),
    fuzz: 'accounts',
  },
  {
    method: 'DELETE',
    url: '/api/users/tokens/:id',
    access: 'session',
    params: p(ApiTokenParamsSchema, valid.apiTokenParams),
    sample: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' } }),
    fuzz: 'accounts',
  },
  ...(['/api/users/', '/api/users'] as const).map((url): RouteEntry => ({
    method: 'DELETE',
    url,
    access: 'session',
    query: p(DeleteAccountQuerySchema, valid.deleteAccountQuery),
    destructive: true,
    sample: () => ({ query: { i_want_to_delete_my_account: 'true' } }),
    fuzz: 'accounts',
  })),

  // licenses
  { method: 'GET', url: '/api/licenses/', access: 'session', query: p(PageQuerySchema, valid.pageQuery), fuzz: 'accounts' },
  { method: 'GET', url: '/api/licenses/public-key', access: 'public', why: 'verifies signed answers offline' },
  {
    method: 'GET',
    url: '/api/licenses/:licenseKey/nodes',
    access: 'owner',
    owns: ['license'],
    params: p(LicenseKeyParamsSchema, valid.licenseKeyParams),
    query: p(PageQuerySchema, valid.pageQuery),
    sample: (ids) => ({ params: { licenseKey: ids.licenseKey } }),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/licenses/:licenseKey/file',
    access: 'owner',
    owns: ['license'],
    params: p(LicenseKeyParamsSchema, valid.licenseKeyParams),
    sample: (ids) => ({ params: { licenseKey: ids.licenseKey } }),
    fuzz: 'accounts',
  },
  {
    method: 'POST',
    url: '/api/licenses/:licenseKey/activate',
    access: 'public',
    why: 'the license key is the credential (field machines hold only the key); signed answer',
    params: p(LicenseKeyParamsSchema, valid.licenseKeyParams),
    body: p(ActivateBodySchema, valid.activateBody),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { licenseKey: ids.licenseKey }, body: { fingerprint: ids.fingerprint } }),
    fuzz: 'accounts',
  },
  {
    method: 'POST',
    url: '/api/licenses/:licenseKey/validate',
    access: 'public',
    why: 'the license key is the credential; signed answer echoing the nonce',
    params: p(LicenseKeyParamsSchema, valid.licenseKeyParams),
    body: p(ValidateBodyOrNoneSchema, valid.validateBody),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { licenseKey: ids.licenseKey }, body: { fingerprint: ids.fingerprint, nonce: 'n' } }),
    fuzz: 'accounts',
  },

  // billing
  { method: 'GET', url: '/api/billing/prices', access: 'public', why: 'the pricing shown before sign-in' },
  { method: 'GET', url: '/api/billing/details', access: 'session' },
  {
    method: 'PUT',
    url: '/api/billing/details',
    access: 'session',
    body: p(UpdateBillingDetailsBodySchema, valid.billingDetailsBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { country: 'DE' } }),
    fuzz: 'billing',
  },
  {
    method: 'GET',
    url: '/api/billing/checkout/preview',
    access: 'session',
    query: p(CheckoutPreviewQuerySchema, valid.checkoutPreviewQuery),
    sample: () => ({ query: { interval: 'month', quantity: '2' } }),
    fuzz: 'billing',
  },
  { method: 'GET', url: '/api/billing/methods', access: 'session' },
  { method: 'GET', url: '/api/billing/methods/', access: 'session' },
  {
    method: 'POST',
    url: '/api/billing/intents/setup',
    access: 'session',
    bodyLimit: SMALL_BODY,
    fuzz: 'billing',
  },
  {
    method: 'POST',
    url: '/api/billing/local/confirm-setup',
    access: 'session',
    billing: 'local',
    body: p(LocalConfirmSetupBodySchema, valid.confirmSetupBody),
    bodyLimit: SMALL_BODY,
    sample: () => ({
      body: { clientSecret: 'seti_x_secret_y', number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
    }),
    fuzz: 'billing',
  },
  {
    method: 'POST',
    url: '/api/billing/intents/checkout',
    access: 'session',
    body: p(CheckoutBodySchema, valid.checkoutBody),
    headers: p(CheckoutHeadersSchema, valid.checkoutHeaders),
    bodyLimit: SMALL_BODY,
    sample: () => ({ body: { interval: 'month', quantity: 1 } }),
    fuzz: 'billing',
  },
  {
    method: 'POST',
    url: '/api/billing/subscriptions/:stripeId/pay',
    access: 'owner',
    owns: ['subscription', 'paymentMethod'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    body: p(PayOpenInvoiceBodySchema, valid.payBody),
    headers: p(CheckoutHeadersSchema, valid.checkoutHeaders),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { stripeId: ids.stripeId }, body: { paymentMethodId: ids.paymentMethodId } }),
    // The fuzzing customer's subscription is paid up: nothing to pay. Listed before the card's
    // removal, which the owner's pass of the authorization matrix makes in table order.
    ownerStatus: 409,
    fuzz: 'billing',
  },
  { method: 'GET', url: '/api/billing/subscriptions', access: 'session' },
  { method: 'GET', url: '/api/billing/subscriptions/', access: 'session' },
  {
    method: 'DELETE',
    url: '/api/billing/methods/:id',
    access: 'owner',
    owns: ['paymentMethod'],
    params: p(MethodParamsSchema, valid.methodParams),
    sample: (ids) => ({ params: { id: ids.paymentMethodId } }),
    fuzz: 'billing',
  },
  {
    method: 'GET',
    url: '/api/billing/subscriptions/:stripeId/invoices',
    access: 'owner',
    owns: ['subscription'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    sample: (ids) => ({ params: { stripeId: ids.stripeId } }),
    fuzz: 'billing',
  },
  {
    method: 'POST',
    url: '/api/billing/subscriptions/:stripeId/preview',
    access: 'owner',
    owns: ['subscription'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    body: p(PreviewChangeBodySchema, valid.previewBody),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { stripeId: ids.stripeId }, body: { quantity: 3 } }),
    fuzz: 'billing',
  },
  {
    method: 'GET',
    url: '/api/billing/invoices/:id',
    access: 'owner',
    owns: ['invoice'],
    params: p(InvoiceParamsSchema, valid.invoiceParams),
    sample: (ids) => ({ params: { id: ids.invoiceId } }),
    fuzz: 'billing',
  },
  {
    method: 'GET',
    url: '/api/billing/invoices/:id/pdf',
    access: 'owner',
    owns: ['invoice'],
    params: p(InvoiceParamsSchema, valid.invoiceParams),
    sample: (ids) => ({ params: { id: ids.invoiceId } }),
    fuzz: 'billing',
  },
  {
    method: 'GET',
    url: '/api/billing/credit-notes/:id/pdf',
    access: 'owner',
    owns: ['invoice'],
    params: p(InvoiceParamsSchema, valid.invoiceParams),
    sample: (ids) => ({ params: { id: ids.invoiceId } }),
    // The fuzzing customer has no credit note: an unknown id answers 404 (invoice-pdf.test.ts has real ones).
    ownerStatus: 404,
    fuzz: 'billing',
  },
  {
    method: 'PUT',
    url: '/api/billing/subscriptions/:stripeId/quantity',
    access: 'owner',
    owns: ['subscription'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    body: p(UpdateQuantityBodySchema, valid.quantityBody),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { stripeId: ids.stripeId }, body: { quantity: 3 } }),
    fuzz: 'billing',
  },
  ...(['/api/billing/subscriptions/:stripeId', '/api/billing/subscriptions/:stripeId/'] as const).flatMap(
    (url, i): RouteEntry[] => [
      {
        method: 'PATCH',
        url,
        access: 'owner',
        owns: ['subscription'],
        params: p(SubscriptionParamsSchema, valid.subscriptionParams),
        body: p(UpdateIntervalBodySchema, valid.intervalBody),
        bodyLimit: SMALL_BODY,
        // The two spellings switch back and forth, so the owner's control requests both succeed.
        sample: (ids) => ({ params: { stripeId: ids.stripeId }, body: { interval: i === 0 ? 'year' : 'month' } }),
        fuzz: 'billing',
      },
    ],
  ),
  ...(['/api/billing/subscriptions/:stripeId', '/api/billing/subscriptions/:stripeId/'] as const).map((url): RouteEntry => ({
    method: 'DELETE',
    url,
    access: 'owner',
    owns: ['subscription'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    sample: (ids) => ({ params: { stripeId: ids.stripeId } }),
    fuzz: 'billing',
  })),
  {
    method: 'POST',
    url: '/api/billing/subscriptions/:stripeId/reactivate',
    access: 'owner',
    owns: ['subscription'],
    params: p(SubscriptionParamsSchema, valid.subscriptionParams),
    bodyLimit: SMALL_BODY,
    sample: (ids) => ({ params: { stripeId: ids.stripeId } }),
    fuzz: 'billing',
  },
  {
    method: 'DELETE',
    url: '/api/licenses/:licenseKey/nodes/:id',
    access: 'owner',
    owns: ['license', 'node'],
    params: p(NodeParamsSchema, valid.nodeParams),
    sample: (ids) => ({ params: { licenseKey: ids.licenseKey, id: ids.nodeId } }),
    fuzz: 'accounts',
  },
  {
    method: 'POST',
    url: '/api/billing/webhook',
    access: 'webhook',
    billing: 'stripe',
    why: 'Stripe-Signature over the raw body',
    bodyLimit: 512 * 1024,
    fuzz: 'stripe',
  },

  // products
  { method: 'GET', url: '/api/downloads/iso', access: 'session' },
  { method: 'GET', url: '/api/products/support', access: 'session' },
  { method: 'GET', url: '/api/products/licenses', access: 'session' },
  {
    method: 'GET',
    url: '/api/products/pce/download',
    access: 'session',
    query: p(DownloadQuerySchema, valid.downloadQuery),
    fuzz: 'accounts',
  },
  {
    method: 'GET',
    url: '/api/products/pce/files/:filename',
    access: 'signature',
    why: 'an HMAC-signed, expiring URL issued to a signed-in customer',
    params: p(DownloadFileParamsSchema, valid.downloadFileParams),
    query: p(DownloadFileQuerySchema, valid.downloadFileQuery),
    sample: (ids) => ({
      params: { filename: ids.download?.filename ?? 'none.iso' },
      query: ids.download
        ? { expires: ids.download.expires, u: ids.download.u, sig: ids.download.sig }
        : ({} as Record<string, string>),
    }),
    fuzz: 'accounts',
  },
];

export const routeId = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** The routes registered with this billing provider. */
export const routesFor = (billing: 'local' | 'stripe') => ROUTES.filter((r) => !r.billing || r.billing === billing);

/** Fills a route's `:name` and `*` parameters with already-encoded segments. */
export function fillPath(url: string, segments: Record<string, string>): string {
  return url.replace(/:([A-Za-z]+)|\*/g, (m: string, name: string | undefined) => {
    const key = name ?? '*';
    const v = segments[key];
    if (v === undefined) throw new Error(`no value for ${m} in ${url}`);
    return v;
  });
}

export const APP_LIMIT = APP_BODY_LIMIT;
