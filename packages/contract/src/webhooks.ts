import { z } from 'zod';
import { pageOf } from './common';
import { ReasonSchema } from './console-actions';

/**
 * Outbound webhooks: the event catalogue (what the vendor's systems receive, docs/webhooks.md) and
 * the console's endpoint management. Payloads follow the Standard Webhooks specification: the body
 * is `{ type, timestamp, data }`, signed in the `webhook-*` headers.
 */

/** The catalogue's version, in every payload: a breaking change to a payload gets a new one. */
export const WEBHOOK_CATALOGUE_VERSION = '2026-11-27';

export const WEBHOOK_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'subscription.created',
  'subscription.changed',
  'subscription.cancelled',
  'subscription.reactivated',
  'subscription.payment_failed',
  'subscription.recovered',
  'subscription.ended',
  'invoice.paid',
  'invoice.refunded',
  'invoice.credited',
  'license.issued',
  'license.suspended',
  'license.resumed',
  'license.extended',
  'license.expired',
  'license.resized',
  'license.revoked',
  'node.activated',
  'node.released',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: 'This is not an event type of the catalogue' });

const when = z.iso.datetime({ offset: true });

/** A customer (the portal's user). After deletion only its id is left: the personal data is erased. */
export const WebhookCustomerSchema = z.object({
  id: z.uuid(),
  email: z.string().nullable(),
  fname: z.string().nullable(),
  lname: z.string().nullable(),
  company: z.string().nullable(),
  onboarded: z.boolean(),
  createdAt: when.nullable(),
  deleted: z.boolean(),
});
export const WebhookSubscriptionSchema = z.object({
  /** The payment provider's id (`stripeId` in the portal's API). */
  id: z.string(),
  customerId: z.uuid().nullable(),
  status: z.string(),
  plan: z.string(),
  quantity: z.number().int(),
  interval: z.string(),
  unitAmount: z.number().int(),
  currency: z.string(),
  currentPeriodStart: when,
  currentPeriodEnd: when,
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: when.nullable(),
  endedReason: z.string().nullable(),
  createdAt: when,
});
export const WebhookInvoiceSchema = z.object({
  /** The portal's id (a UUID) for the built-in engine's invoices, Stripe's (`in_…`) for Stripe's. */
  id: z.string(),
  number: z.string(),
  customerId: z.uuid().nullable(),
  subscriptionId: z.string().nullable(),
  status: z.string(),
  currency: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  /** Refunds and credit notes against it, in the smallest unit of the currency. */
  amountReturned: z.number().int(),
  periodStart: when,
  periodEnd: when,
  createdAt: when,
});
export const WebhookLicenseSchema = z.object({
  key: z.string(),
  customerId: z.uuid().nullable(),
  subscriptionId: z.string().nullable(),
  status: z.string(),
  maxNodes: z.number().int(),
  activeNodes: z.number().int(),
  expiresAt: when,
  graceUntil: when.nullable(),
  /** What the vendor's staff told the customer about a suspension (null without one, or when not suspended). */
  suspensionMessage: z.string().nullable(),
  createdAt: when,
});
export const WebhookNodeSchema = z.object({
  id: z.uuid(),
  licenseKey: z.string(),
  fingerprint: z.string(),
  hostname: z.string().nullable(),
  /** False once released: the node no longer counts against the license. */
  active: z.boolean(),
  activatedAt: when.nullable(),
});

const RESOURCES = {
  customer: WebhookCustomerSchema,
  subscription: WebhookSubscriptionSchema,
  invoice: WebhookInvoiceSchema,
  license: WebhookLicenseSchema,
  node: WebhookNodeSchema,
} as const;
export type WebhookResourceType = keyof typeof RESOURCES;
export type WebhookObject<R extends WebhookResourceType> = z.output<(typeof RESOURCES)[R]>;

/** The resource an event type is about: the part of its name before the dot. */
export const resourceOfEvent = (type: WebhookEventType) => type.split('.')[0] as WebhookResourceType;

function eventSchema<T extends WebhookEventType>(type: T) {
  const resource = resourceOfEvent(type);
  return z.object({
    type: z.literal(type),
    /** When it happened (ISO 8601). */
    timestamp: when,
    version: z.literal(WEBHOOK_CATALOGUE_VERSION),
    data: z.object({
      resource: z.literal(resource),
      /**
       * Counts this resource's events from 1, in the order they happened: a receiver that has seen a
       * higher number for the resource drops this one (it arrived late).
       */
      sequence: z.number().int().min(1),
      /** The resource's full state right after the change. */
      object: RESOURCES[resource],
    }),
  });
}

/** One schema per event type (`z.toJSONSchema` gives the JSON Schema published in docs/webhooks/). */
export const WEBHOOK_EVENT_SCHEMAS = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, eventSchema(t)])) as {
  [T in WebhookEventType]: ReturnType<typeof eventSchema<T>>;
};
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = z.output<(typeof WEBHOOK_EVENT_SCHEMAS)[T]>;

/** The JSON Schema (draft 2020-12) of an event's payload. */
export const webhookEventJsonSchema = (type: WebhookEventType) =>
  z.toJSONSchema(WEBHOOK_EVENT_SCHEMAS[type], { target: 'draft-2020-12', io: 'output' });

// ---------- the console's endpoint management ----------

/** An endpoint's address: https (or http, for a receiver inside the vendor's network), no credentials. */
export const WebhookUrlSchema = z
  .string()
  .max(2000, 'A URL can be at most 2000 characters')
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'Enter a URL starting with https://')
  .refine(
    (v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''),
    'Leave credentials out of the URL',
  )
  .refine((v) => !URL.canParse(v) || new URL(v).hash === '', 'Leave the #fragment out of the URL');
const description = z.string().max(500, 'A description can be at most 500 characters');
/** Empty: every event of the catalogue, today's and later ones. */
const eventTypes = z.array(WebhookEventTypeSchema).max(WEBHOOK_EVENT_TYPES.length);

export const WebhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  /** `failing` when the portal turned it off after its deliveries kept failing. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret still signs (after a rotation). */
  previousSecretExpiresAt: when.nullable(),
  createdAt: when,
  updatedAt: when,
});
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export const WebhookEndpointListSchema = z.object({ items: z.array(WebhookEndpointSchema) });
export const WebhookEndpointParamsSchema = z.strictObject({ endpointId: z.uuid('This endpoint id is not valid') });

export const CreateWebhookEndpointBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  description: description.default(''),
  eventTypes: eventTypes.default([]),
  reason: ReasonSchema,
});
export type CreateWebhookEndpointBody = z.input<typeof CreateWebhookEndpointBodySchema>;
export const UpdateWebhookEndpointBodySchema = z.strictObject({
  url: WebhookUrlSchema.optional(),
  description: description.optional(),
  eventTypes: eventTypes.optional(),
  enabled: z.boolean().optional(),
  reason: ReasonSchema,
});
export type UpdateWebhookEndpointBody = z.input<typeof UpdateWebhookEndpointBodySchema>;
export const DeleteWebhookEndpointBodySchema = z.strictObject({ reason: ReasonSchema });
export const RotateWebhookSecretBodySchema = z.strictObject({
  /** How long the previous secret keeps signing beside the new one (default 24 hours, at most 7 days). */
  overlapHours: z.number().int().min(0).max(168).default(24),
  reason: ReasonSchema,
});
export type RotateWebhookSecretBody = z.input<typeof RotateWebhookSecretBodySchema>;
/** The answer to creating an endpoint or rotating its secret: the secret, shown this once. */
export const WebhookEndpointWithSecretSchema = z.object({ endpoint: WebhookEndpointSchema, secret: z.string() });
export const WebhookEndpointResponseSchema = z.object({ endpoint: WebhookEndpointSchema });

/** One attempt of the delivery log. */
export const WebhookAttemptSchema = z.object({
  id: z.number().int(),
  deliveryId: z.number().int(),
  messageId: z.string(),
  eventType: z.string(),
  attempt: z.number().int(),
  at: when,
  url: z.string(),
  /** The request's body (the event's payload) as sent. */
  requestBody: z.string(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  /** The delivery's state now: pending, delivered, failed, cancelled. */
  deliveryStatus: z.string(),
});
export type WebhookAttempt = z.output<typeof WebhookAttemptSchema>;
export const WebhookAttemptPageSchema = pageOf(WebhookAttemptSchema);
export const ListWebhookAttemptsQuerySchema = z.strictObject({
  page: z
    .string()
    .regex(/^\d{1,9}$/, 'page must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'page must be at least 1'))
    .optional()
    .transform((v) => v ?? 1),
  size: z
    .string()
    .regex(/^\d{1,3}$/, 'size must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'size must be at least 1').max(100, 'size must be at most 100'))
    .optional()
    .transform((v) => v ?? 20),
});
export const ResendWebhookParamsSchema = z.strictObject({
  endpointId: z.uuid('This endpoint id is not valid'),
  deliveryId: z
    .string()
    .regex(/^\d{1,15}$/, 'This delivery id is not valid')
    .transform(Number),
});
export const ResendWebhookBodySchema = z.strictObject({ reason: ReasonSchema });
export const ResendWebhookResponseSchema = z.object({ deliveryId: z.number().int() });
