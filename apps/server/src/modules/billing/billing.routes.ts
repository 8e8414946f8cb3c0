import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BillingDetailsResponseSchema,
  type BillingDetails,
  ChangePreviewSchema,
  CheckoutPreviewQuerySchema,
  CheckoutPreviewSchema,
  CheckoutBodySchema,
  CheckoutResponseSchema,
  ErrorSchema,
  InvoiceListSchema,
  InvoiceParamsSchema,
  LocalConfirmSetupBodySchema,
  MethodParamsSchema,
  PayOpenInvoiceBodySchema,
  PaymentMethodListSchema,
  PaymentMethodResponseSchema,
  PreviewChangeBodySchema,
  PriceSchema,
  SetupIntentResponseSchema,
  SubscriptionListSchema,
  SubscriptionParamsSchema,
  SubscriptionResponseSchema,
  UpdateBillingDetailsBodySchema,
  UpdateIntervalBodySchema,
  UpdateQuantityBodySchema,
  WebhookResponseSchema,
} from '@portal/contract';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import type { RateLimit } from '../../plugins/rate-limit';
import { signedIn } from '../../plugins/session';
import { invoicePage } from './billing-documents';
import type { BillingService } from './billing.service';

export type BillingRoutesDeps = {
  config: Pick<Config, 'brand' | 'rateLimits' | 'stripe'>;
  billing: BillingService;
  rateLimit: RateLimit;
};
/** Stripe's events are small, but an invoice with many lines can pass 16 KiB. */
const WEBHOOK_BODY = 512 * 1024;

const errors = {
  400: ErrorSchema,
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

/** The specification names the path parameter `stripeId`; it is the subscription's id at whichever provider bills it. */
const subscriptionId = (req: { params: { stripeId: string } }) => req.params.stripeId;

export async function billingRoutes(app: FastifyInstance, { config, billing, rateLimit }: BillingRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/billing/prices',
    { schema: { summary: 'Plan prices per node (minor units)', response: { 200: PriceSchema } } },
    async () => billing.prices(),
  );

  /** The details, and whether a subscription waits for the address before Stripe Tax applies. */
  const detailsResponse = async (userId: string, details: BillingDetails | null) =>
    (await billing.taxAddressNeeded(userId)) ? { details, taxAddressNeeded: true as const } : { details };

  r.get(
    '/billing/details',
    signedIn({
      summary: 'The billing details invoices are made out to (null until given)',
      response: { 200: BillingDetailsResponseSchema },
    }),
    async (req) => detailsResponse(req.user.id, await billing.getBillingDetails(req.user.id)),
  );

  r.put(
    '/billing/details',
    signedIn({
      summary:
        'Set the billing details (applies to later invoices). An EU VAT number is checked with VIES: valid, invalid, or pending while VIES cannot be asked',
      body: UpdateBillingDetailsBodySchema,
      response: { 200: BillingDetailsResponseSchema, ...errors },
    }),
    async (req) => detailsResponse(req.user.id, await billing.updateBillingDetails(req.user, req.body)),
  );

  for (const url of withSlash('/billing/methods')) {
    r.get(
      url,
      signedIn({
        summary: "The customer's cards (brand, last 4, expiry)",
        response: { 200: PaymentMethodListSchema },
      }),
      async (req) => ({ items: await billing.listPaymentMethods(req.user.id) }),
    );
  }

  r.delete(
    '/billing/methods/:id',
    signedIn({
      summary: 'Remove a card (another card takes over a subscription it pays for)',
      params: MethodParamsSchema,
      response: { 204: z.null(), ...errors },
    }),
    async (req, reply) => {
      await billing.removePaymentMethod(req.user, req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/billing/intents/setup',
    signedIn({
      summary: 'Start adding a card: a client secret for the card form',
      response: { 200: SetupIntentResponseSchema, ...errors },
    }),
    async (req) => billing.createSetupIntent(req.user),
  );

  if (!config.stripe) {
    r.post(
      '/billing/local/confirm-setup',
      signedIn({
        summary: "The local billing engine's card form (Stripe's test card numbers)",
        body: LocalConfirmSetupBodySchema,
        response: { 201: PaymentMethodResponseSchema, ...errors },
      }),
      async (req, reply) => {
        // Card forms attract card testing: limited per user like sign-in attempts.
        await rateLimit(`billing:card:${req.user.id}`, config.rateLimits.authPerMinute, 'Too many card attempts.');
        const paymentMethod = await billing.confirmLocalSetup(req.user, req.body);
        return reply.status(201).send({ paymentMethod });
      },
    );
  }

  r.post(
    '/billing/intents/checkout',
    signedIn({
      summary:
        'Buy a subscription (charged now; issues its license). Idempotent per Idempotency-Key, or per identical purchase within 10 s',
      body: CheckoutBodySchema,
      headers: CheckoutHeadersSchema,
      response: { 200: CheckoutResponseSchema, 201: CheckoutResponseSchema, ...errors },
    }),
    async (req, reply) => {
      const result = await billing.checkout(req.user, req.body, req.headers['idempotency-key']);
      return reply
        .status(result.created ? 201 : 200)
        .send({ subscription: result.subscription, ...(result.clientSecret ? { clientSecret: result.clientSecret } : {}) });
    },
  );

  r.get(
    '/billing/checkout/preview',
    signedIn({
      summary: 'What a checkout would charge now: net, tax and total (changes nothing)',
      querystring: CheckoutPreviewQuerySchema,
      response: { 200: CheckoutPreviewSchema, ...errors },
    }),
    async (req) => billing.previewCheckout(req.user, req.query.interval, req.query.quantity),
  );

  for (const url of withSlash('/billing/subscriptions')) {
    r.get(
      url,
      signedIn({
        summary: "The customer's subscriptions with their license keys",
        response: { 200: SubscriptionListSchema },
      }),
      async (req) => ({ items: await billing.listSubscriptions(req.user.id) }),
    );
  }

  r.get(
    '/billing/subscriptions/:stripeId/invoices',
    signedIn({
      summary: "A subscription's invoices, newest first",
      params: SubscriptionParamsSchema,
      response: { 200: InvoiceListSchema, ...errors },
    }),
    async (req) => ({ items: await billing.listInvoices(req.user.id, subscriptionId(req)) }),
  );

  for (const url of withSlash('/billing/subscriptions/:stripeId')) {
    r.patch(
      url,
      signedIn({
        summary: 'Switch the billing interval (charged now, prorated; the period restarts)',
        params: SubscriptionParamsSchema,
        body: UpdateIntervalBodySchema,
        response: { 200: SubscriptionResponseSchema, ...errors },
      }),
      async (req) => ({ subscription: await billing.changeInterval(req.user, subscriptionId(req), req.body.interval) }),
    );
    r.delete(
      url,
      signedIn({
        summary: 'Cancel at the end of the period (the license stays valid until then)',
        params: SubscriptionParamsSchema,
        response: { 200: SubscriptionResponseSchema, ...errors },
      }),
      async (req) => ({ subscription: await billing.cancel(req.user, subscriptionId(req)) }),
    );
  }

  r.put(
    '/billing/subscriptions/:stripeId/quantity',
    signedIn({
      summary: 'Change the number of nodes (charged now, prorated; resizes the license)',
      params: SubscriptionParamsSchema,
      body: UpdateQuantityBodySchema,
      response: { 200: SubscriptionResponseSchema, ...errors },
    }),
    async (req) => ({ subscription: await billing.changeQuantity(req.user, subscriptionId(req), req.body.quantity) }),
  );

  r.post(
    '/billing/subscriptions/:stripeId/reactivate',
    signedIn({
      summary: 'Undo a cancellation before the period ends (no charge until then)',
      params: SubscriptionParamsSchema,
      response: { 200: SubscriptionResponseSchema, ...errors },
    }),
    async (req) => ({ subscription: await billing.reactivate(req.user, subscriptionId(req)) }),
  );

  r.post(
    '/billing/subscriptions/:stripeId/pay',
    signedIn({
      summary:
        "Pay a past_due subscription's open invoice now with a card on file (restores it at once; 402 when declined, 409 when nothing is owed)",
      params: SubscriptionParamsSchema,
      body: PayOpenInvoiceBodySchema,
      headers: CheckoutHeadersSchema,
      response: { 200: SubscriptionResponseSchema, ...errors },
    }),
    async (req) => {
      // A charge of a chosen card: limited per user with the card form (card testing).
      await rateLimit(`billing:card:${req.user.id}`, config.rateLimits.authPerMinute, 'Too many card attempts.');
      const subscription = await billing.payOpenInvoice(
        req.user,
        subscriptionId(req),
        req.body.paymentMethodId,
        req.headers['idempotency-key'],
      );
      return { subscription };
    },
  );

  r.post(
    '/billing/subscriptions/:stripeId/preview',
    signedIn({
      summary: 'What a quantity or interval change would charge now, and the next renewal (changes nothing)',
      params: SubscriptionParamsSchema,
      body: PreviewChangeBodySchema,
      response: { 200: ChangePreviewSchema, ...errors },
    }),
    async (req) => billing.preview(req.user.id, subscriptionId(req), req.body),
  );

  r.get(
    '/billing/invoices/:id',
    signedIn({
      summary: 'A printable invoice page (HTML); on Stripe, a redirect to its hosted invoice',
      params: InvoiceParamsSchema,
      response: { 404: ErrorSchema },
    }),
    async (req, reply) => {
      const doc = await billing.invoiceDocument(req.user.id, req.params.id);
      if ('redirect' in doc) return reply.redirect(doc.redirect, 303);
      const html: unknown = invoicePage(doc.invoice, config.brand.name);
      // An HTML page, not JSON: no 200 schema, so the typed reply does not know this body.
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(html as never);
    },
  );

  /** A PDF answer: a download named after the document, never cached by shared caches. */
  const sendPdf = (reply: FastifyReply, doc: { filename: string; pdf: Buffer }) =>
    reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${doc.filename}"`)
      .header('cache-control', 'private, no-store')
      .send(doc.pdf as never);

  r.get(
    '/billing/invoices/:id/pdf',
    signedIn({
      summary: 'The invoice as a PDF (the same bytes every time); on Stripe, a redirect to its hosted invoice',
      params: InvoiceParamsSchema,
      response: { 404: ErrorSchema },
    }),
    async (req, reply) => {
      const doc = await billing.invoicePdf(req.user.id, req.params.id);
      if ('redirect' in doc) return reply.redirect(doc.redirect, 303);
      return sendPdf(reply, doc);
    },
  );

  r.get(
    '/billing/credit-notes/:id/pdf',
    signedIn({
      summary: 'A credit note (a refund or credit of an invoice) as a PDF',
      params: InvoiceParamsSchema,
      response: { 404: ErrorSchema },
    }),
    async (req, reply) => sendPdf(reply, await billing.creditNotePdf(req.user.id, req.params.id)),
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
