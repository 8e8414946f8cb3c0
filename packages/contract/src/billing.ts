import { z } from 'zod';
import { QUANTITY_MAX, QUANTITY_MIN } from './constants';
import { QUANTITY_REFUSALS } from './quantity';
import { itemsOf, OpaqueIdSchema } from './common';

export const INTERVALS = ['month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];
export const IntervalSchema = z.enum(INTERVALS, { error: 'The billing interval must be "month" or "year"' });

export const QuantitySchema = z
  .number({ error: QUANTITY_REFUSALS.whole })
  .int(QUANTITY_REFUSALS.whole)
  .min(QUANTITY_MIN, QUANTITY_REFUSALS.min)
  .max(QUANTITY_MAX, QUANTITY_REFUSALS.max);

export const PaymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
export const PaymentMethodListSchema = itemsOf(PaymentMethodSchema);
export const MethodParamsSchema = z.strictObject({ id: OpaqueIdSchema });

export const SetupIntentResponseSchema = z.object({
  provider: z.enum(['stripe', 'local']),
  clientSecret: z.string(),
  publishableKey: z.string().optional(),
});
export type SetupIntentResponse = z.infer<typeof SetupIntentResponseSchema>;

export const LocalConfirmSetupBodySchema = z.strictObject({
  clientSecret: z.string().min(1).max(255),
  number: z.string().max(32),
  expMonth: z.number().int().min(1, 'The expiry month must be 1 to 12').max(12, 'The expiry month must be 1 to 12'),
  expYear: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, 'The security code has 3 or 4 digits'),
});

/** An invoice's state, in Stripe's words (the `invoice_status` enum of the built-in engine's invoices). */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ['incomplete', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/**
 * Why a subscription ended (`canceled`): `cancelled` at its period's end, `unpaid` when the grace
 * of a failed payment ran out (ended for non-payment), `ended_now` by the vendor, or with the
 * owner's `account_deleted`. `past_due` is the other state of a failing payment: in grace.
 */
export const SUBSCRIPTION_END_REASONS = ['cancelled', 'unpaid', 'ended_now', 'account_deleted'] as const;
export type SubscriptionEndReason = (typeof SUBSCRIPTION_END_REASONS)[number];

/**
 * A failing payment as the customer sees it (a `past_due` subscription, in grace): what is owed,
 * until when the license keeps working (the grace's end) and when the card is tried again (null
 * when no retry is scheduled: the built-in engine's schedule is done, or Stripe retries on its own).
 * `invoiceNumber` is null when the provider has not told us of the open invoice (the amount is
 * then the subscription's price for one period).
 */
export const PaymentFailingSchema = z.object({
  amountDue: z.number().int(),
  currency: z.string(),
  invoiceNumber: z.string().nullable(),
  failingSince: z.string(),
  accessUntil: z.string(),
  nextAttemptAt: z.string().nullable(),
});
export type PaymentFailing = z.infer<typeof PaymentFailingSchema>;

export const SubscriptionSchema = z.object({
  stripeId: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  quantity: z.number().int(),
  interval: z.enum(INTERVALS),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /** Why it ended; null while it runs. */
  endedReason: z.enum(SUBSCRIPTION_END_REASONS).nullable(),
  plan: z.string(),
  unitAmount: z.number().int(),
  currency: z.string(),
  licenseKey: z.string().nullable(),
  /** The failing payment of a past_due subscription; null otherwise. */
  paymentFailing: PaymentFailingSchema.nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionListSchema = itemsOf(SubscriptionSchema);
export const SubscriptionResponseSchema = z.object({ subscription: SubscriptionSchema });
export const SubscriptionParamsSchema = z.strictObject({ stripeId: OpaqueIdSchema });

export const CheckoutBodySchema = z.strictObject({
  interval: IntervalSchema,
  quantity: QuantitySchema,
  paymentMethodId: z.string().min(1).max(255).optional(),
});
export type CheckoutBody = z.input<typeof CheckoutBodySchema>;
export const CheckoutResponseSchema = z.object({
  subscription: SubscriptionSchema,
  clientSecret: z.string().optional(),
});

/** Pays a past_due subscription's open invoice now with one of the customer's cards. */
export const PayOpenInvoiceBodySchema = z.strictObject({
  paymentMethodId: z.string({ error: 'Choose a card to pay with' }).min(1, 'Choose a card to pay with').max(255),
});
export type PayOpenInvoiceBody = z.input<typeof PayOpenInvoiceBodySchema>;

export const UpdateIntervalBodySchema = z.strictObject({ interval: IntervalSchema });
export const UpdateQuantityBodySchema = z.strictObject({ quantity: QuantitySchema });

export const InvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  /**
   * Net (the lines), tax and total (net + tax) before account credit, on invoices that carry tax
   * (a seller registered for VAT, or Stripe Tax); absent where no tax applies. amountDue is what was charged.
   */
  subtotal: z.number().int().optional(),
  tax: z.number().int().optional(),
  total: z.number().int().optional(),
  currency: z.string(),
  created: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  url: z.string().nullable(),
  /** Credit notes correcting this invoice (a refund or credit), when there are any. */
  creditNotes: z
    .array(
      z.object({
        id: z.string(),
        number: z.string(),
        kind: z.enum(['refund', 'credit']),
        amount: z.number().int(),
        created: z.string(),
        url: z.string(),
      }),
    )
    .optional(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/**
 * What an invoice list says of an invoice paid back wholly or in part: 'refunded' or
 * 'partially_refunded' (the stored status stays 'paid', as Stripe's does); any other status as it is.
 */
export function refundedStatus(status: string, amountPaid: number, refunded: number): string {
  if (status !== 'paid' || refunded <= 0) return status;
  return refunded >= amountPaid ? 'refunded' : 'partially_refunded';
}
export const InvoiceListSchema = itemsOf(InvoiceSchema);

export const PriceSchema = z.object({
  plan: z.string(),
  currency: z.string(),
  monthUnitAmount: z.number().int(),
  yearUnitAmount: z.number().int(),
  /** Present (true) when tax is added to these net prices at checkout (the seller charges VAT). */
  taxAdded: z.literal(true).optional(),
});
export type Price = z.infer<typeof PriceSchema>;

/** The card a local card form just added. */
export const PaymentMethodResponseSchema = z.object({ paymentMethod: PaymentMethodSchema });

export const InvoiceParamsSchema = z.strictObject({ id: OpaqueIdSchema });

/** What a change would cost now: exactly one of quantity or interval. */
export const PreviewChangeBodySchema = z
  .strictObject({
    quantity: QuantitySchema.optional(),
    interval: IntervalSchema.optional(),
  })
  .refine((b) => (b.quantity === undefined) !== (b.interval === undefined), {
    message: 'Give either a new quantity or a new billing interval',
  });
export type PreviewChangeBody = z.input<typeof PreviewChangeBodySchema>;

export const InvoiceLineSchema = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unitAmount: z.number().int(),
  amount: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type InvoiceLineItem = z.infer<typeof InvoiceLineSchema>;

/**
 * The invoice a change would produce now: `amountDue` is what the card is charged at once
 * (after any account credit), `nextRenewalAt`/`nextRenewalAmount` the following regular charge.
 */
/** Tax per rate: the rate in basis points (1900 = 19 %), net and tax in minor units. */
export const TaxLineSchema = z.object({ rateBp: z.number().int(), net: z.number().int(), tax: z.number().int() });
export type TaxLine = z.infer<typeof TaxLineSchema>;

export const ChangePreviewSchema = z.object({
  amountDue: z.number().int(),
  /** Net: the lines' sum. */
  subtotal: z.number().int(),
  /** Tax, net + tax and tax per rate: present when tax applies (absent: no tax, total = subtotal). */
  tax: z.number().int().optional(),
  total: z.number().int().optional(),
  taxLines: z.array(TaxLineSchema).optional(),
  /** The sentence the invoice will carry (reverse charge, export), if any. */
  taxNote: z.string().nullable().optional(),
  creditApplied: z.number().int(),
  currency: z.string(),
  nextRenewalAt: z.string(),
  nextRenewalAmount: z.number().int(),
  lines: z.array(InvoiceLineSchema),
});
export type ChangePreview = z.infer<typeof ChangePreviewSchema>;

/** GET /api/billing/checkout/preview: what a checkout would charge now (changes nothing). */
export const CheckoutPreviewQuerySchema = z.strictObject({
  interval: IntervalSchema,
  quantity: z
    .string()
    .regex(/^\d{1,3}$/, 'The quantity must be a whole number')
    .transform(Number)
    .pipe(QuantitySchema),
});
export const CheckoutPreviewSchema = z.object({
  subtotal: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
  taxLines: z.array(TaxLineSchema),
  taxNote: z.string().nullable(),
  currency: z.string(),
  lines: z.array(InvoiceLineSchema),
});
export type CheckoutPreview = z.infer<typeof CheckoutPreviewSchema>;

export const WebhookResponseSchema = z.object({ received: z.literal(true), duplicate: z.boolean().optional() });
