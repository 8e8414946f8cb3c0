import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangePreviewSchema,
  CheckoutBodySchema,
  CheckoutResponseSchema,
  ErrorSchema,
  InvoiceListSchema,
  InvoiceParamsSchema,
  LocalConfirmSetupBodySchema,
  MethodParamsSchema,
  PaymentMethodListSchema,
  PaymentMethodResponseSchema,
  PreviewChangeBodySchema,
  PriceSchema,
  SetupIntentResponseSchema,
  SubscriptionListSchema,
  SubscriptionParamsSchema,
  SubscriptionResponseSchema,
  UpdateIntervalBodySchema,
  UpdateQuantityBodySchema,
  WebhookResponseSchema,
} from '@portal/contract';
import type { AppContext } from '../../app-context';
import { AppError } from '../../lib/errors';
import { invoicePage } from './billing-documents';

const SMALL_BODY = 16 * 1024;
/** Stripe's events are small, but an invoice with many lines can pass 16 KiB. */
const WEBHOOK_BODY = 512 * 1024;

const errors = {
  400: ErrorSchema,
  401: ErrorSchema,
  402: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  429: ErrorSchema,
  503: ErrorSchema,
};

const CheckoutHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{8,255}$/, 'The Idempotency-Key header must be 8 to 255 letters, digits or _ . : -')
    .optional(),
});

/** Some documented paths end in a slash (ALIASES in plugins/openapi-operations.ts); both forms answer. */
const withSlash = (path: string) => [path, `${path}/`];

export async function billingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { services, guard, config, rateLimit } = ctx;
  const billing = services.billing;
  const tags = ['billing'];

  r.get(
    '/billing/prices',
    { schema: { tags, summary: 'Plan prices per node (minor units)', response: { 200: PriceSchema } } },
    async () => billing.prices(),
  );

  for (const url of withSlash('/billing/methods')) {
    r.get(
      url,
      {
        schema: {
          tags,
          summary: "The customer's cards (brand, last 4, expiry)",
          response: { 200: PaymentMethodListSchema, 401: ErrorSchema },
        },
      },
      async (req) => {
        const { user } = await guard.requireUser(req);
        return { items: await billing.listPaymentMethods(user.id) };
      },
    );
  }

  r.delete(
    '/billing/methods/:id',
    {
      schema: {
        tags,
        summary: 'Remove a card (another card takes over a subscription it pays for)',
        params: MethodParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const { user } = await guard.requireUser(req);
      await billing.removePaymentMethod(user, req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/billing/intents/setup',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags,
        summary: 'Start adding a card: a client secret for the card form',
        response: { 200: SetupIntentResponseSchema, ...errors },
      },
    },
    async (req) => {
      const { user } = await guard.requireUser(req);
      return billing.createSetupIntent(user);
    },
  );

  if (!config.stripe) {
    r.post(
      '/billing/local/confirm-setup',
      {
        bodyLimit: SMALL_BODY,
        schema: {
          tags,
          summary: "The local billing engine's card form (Stripe's test card numbers)",
          body: LocalConfirmSetupBodySchema,
          response: { 201: PaymentMethodResponseSchema, ...errors },
        },
      },
      async (req, reply) => {
        const { user } = await guard.requireUser(req);
        // Card forms attract card testing: limited per user like sign-in attempts.
        await rateLimit(`billing:card:${user.id}`, config.rateLimits.authPerMinute, 'Too many card attempts.');
        const paymentMethod = await billing.confirmLocalSetup(user, req.body);
        return reply.status(201).send({ paymentMethod });
      },
    );
  }

  r.post(
    '/billing/intents/checkout',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags,
        summary:
          'Buy a subscription (charged now; issues its license). Idempotent per Idempotency-Key, or per identical purchase within 10 s',
        body: CheckoutBodySchema,
        headers: CheckoutHeadersSchema,
        response: { 200: CheckoutResponseSchema, 201: CheckoutResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { user } = await guard.requireUser(req);
      const result = await billing.checkout(user, req.body, req.headers['idempotency-key']);
      return reply
        .status(result.created ? 201 : 200)
        .send({ subscription: result.subscription, ...(result.clientSecret ? { clientSecret: result.clientSecret } : {}) });
    },
  );

  for (const url of withSlash('/billing/subscriptions')) {
    r.get(
      url,
      {
        schema: {
          tags,
          summary: "The customer's subscriptions with their license keys",
          response: { 200: SubscriptionListSchema, 401: ErrorSchema },
        },
      },
      async (req) => {
        const { user } = await guard.requireUser(req);
        return { items: await billing.listSubscriptions(user.id) };
      },
    );
  }

  r.get(
    '/billing/subscriptions/:stripeId/invoices',
    {
      schema: {
        tags,
        summary: "A subscription's invoices, newest first",
        params: SubscriptionParamsSchema,
        response: { 200: InvoiceListSchema, ...errors },
      },
    },
    async (req) => {
      const { user } = await guard.requireUser(req);
      return { items: await billing.listInvoices(user.id, req.params.stripeId) };
    },
  );

  for (const url of withSlash('/billing/subscriptions/:stripeId')) {
    r.patch(
      url,
      {
        bodyLimit: SMALL_BODY,
        schema: {
          tags,
          summary: 'Switch the billing interval (charged now, prorated; the period restarts)',
          params: SubscriptionParamsSchema,
          body: UpdateIntervalBodySchema,
          response: { 200: SubscriptionResponseSchema, ...errors },
        },
      },
      async (req) => {
        const { user } = await guard.requireUser(req);
        return { subscription: await billing.changeInterval(user, req.params.stripeId, req.body.interval) };
      },
    );
    r.delete(
      url,
      {
        schema: {
          tags,
          summary: 'Cancel at the end of the period (the license stays valid until then)',
          params: SubscriptionParamsSchema,
          response: { 200: SubscriptionResponseSchema, ...errors },
        },
      },
      async (req) => {
        const { user } = await guard.requireUser(req);
        return { subscription: await billing.cancel(user, req.params.stripeId) };
      },
    );
  }

  r.put(
    '/billing/subscriptions/:stripeId/quantity',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags,
        summary: 'Change the number of nodes (charged now, prorated; resizes the license)',
        params: SubscriptionParamsSchema,
        body: UpdateQuantityBodySchema,
        response: { 200: SubscriptionResponseSchema, ...errors },
      },
    },
    async (req) => {
      const { user } = await guard.requireUser(req);
      return { subscription: await billing.changeQuantity(user, req.params.stripeId, req.body.quantity) };
    },
  );

  r.post(
    '/billing/subscriptions/:stripeId/reactivate',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags,
        summary: 'Undo a cancellation before the period ends (no charge until then)',
        params: SubscriptionParamsSchema,
        response: { 200: SubscriptionResponseSchema, ...errors },
      },
    },
    async (req) => {
      const { user } = await guard.requireUser(req);
      return { subscription: await billing.reactivate(user, req.params.stripeId) };
    },
  );

  r.post(
    '/billing/subscriptions/:stripeId/preview',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags,
        summary: 'What a quantity or interval change would charge now, and the next renewal (changes nothing)',
        params: SubscriptionParamsSchema,
        body: PreviewChangeBodySchema,
        response: { 200: ChangePreviewSchema, ...errors },
      },
    },
    async (req) => {
      const { user } = await guard.requireUser(req);
      return billing.preview(user.id, req.params.stripeId, req.body);
    },
  );

  r.get(
    '/billing/invoices/:id',
    {
      schema: {
        tags,
        summary: 'A printable invoice page (HTML); on Stripe, a redirect to its hosted invoice',
        params: InvoiceParamsSchema,
        response: { 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (req, reply) => {
      const { user } = await guard.requireUser(req);
      const doc = await billing.invoiceDocument(user.id, req.params.id);
      if ('redirect' in doc) return reply.redirect(doc.redirect, 303);
      const html: unknown = invoicePage(doc.invoice, config.brand.name);
      // An HTML page, not JSON: no 200 schema, so the typed reply does not know this body.
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(html as never);
    },
  );

  if (config.stripe) {
    // Stripe signs the exact bytes it sends: only this encapsulated scope keeps JSON bodies raw.
    await app.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      hook.withTypeProvider<ZodTypeProvider>().post(
        '/billing/webhook',
        {
          bodyLimit: WEBHOOK_BODY,
          config: { rawBody: true },
          schema: {
            tags,
            summary: 'Stripe webhooks: signature checked on the raw body, each event processed once',
            response: { 200: WebhookResponseSchema, 400: ErrorSchema },
          },
        },
        async (req) => {
          if (!Buffer.isBuffer(req.body)) throw new AppError('BAD_REQUEST', 'The webhook body is missing.');
          const signature = req.headers['stripe-signature'];
          const { duplicate } = await billing.handleWebhook(req.body, typeof signature === 'string' ? signature : undefined);
          return { received: true as const, ...(duplicate ? { duplicate } : {}) };
        },
      );
    });
  }
}
