import { z } from 'zod';
import { isStorableText, isVisibleText, OpaqueIdSchema, STORABLE_TEXT_MESSAGE, VISIBLE_TEXT_MESSAGE } from './common';
import { QuantitySchema } from './billing';
import { UpdateBillingDetailsBodySchema } from './billing-details';
import { LicenseKeySchema } from './licenses';

export const REASON_MAX_LENGTH = 500;
/** Every staff action states why; it is kept in the staff audit log. */
export const ReasonSchema = z
  .string({ error: 'Say why you are doing this' })
  .trim()
  .min(1, 'Say why you are doing this')
  .max(REASON_MAX_LENGTH, `A reason can be at most ${REASON_MAX_LENGTH} characters`)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE);

/** The body of an action that needs nothing but a reason. */
export const ActionBodySchema = z.strictObject({ reason: ReasonSchema });
export type ActionBody = z.input<typeof ActionBodySchema>;

export const SUSPENSION_MESSAGE_MAX_LENGTH = 500;
/**
 * What staff tell the customer about a suspension, shown in the portal beside "suspended … contact
 * support" (unlike the reason, which stays in the staff audit log). Shown to the customer: the
 * visible-text rule of names (no control characters, line breaks, direction overrides or
 * zero-width characters). Empty means no message.
 */
export const SuspensionMessageSchema = z
  .string({ error: 'The message to the customer must be text' })
  .trim()
  .max(SUSPENSION_MESSAGE_MAX_LENGTH, `A message to the customer can be at most ${SUSPENSION_MESSAGE_MAX_LENGTH} characters`)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .refine(isVisibleText, VISIBLE_TEXT_MESSAGE);

/** POST …/licenses/{licenseKey}/suspend: the reason (staff only) and, optionally, a message the customer sees. */
export const SuspendLicenseBodySchema = z.strictObject({
  reason: ReasonSchema,
  customerMessage: SuspensionMessageSchema.optional(),
});
export type SuspendLicenseBody = z.input<typeof SuspendLicenseBodySchema>;

export const EXTEND_DAYS_MAX = 3650;
const days = z
  .number({ error: 'The number of days must be a whole number' })
  .int('The number of days must be a whole number')
  .min(1, 'The number of days must be at least 1')
  .max(EXTEND_DAYS_MAX, `The number of days can be at most ${EXTEND_DAYS_MAX}`);

/** POST …/licenses/{licenseKey}/extend: the expiry moves `days` later (from now if it has passed). */
export const ExtendLicenseBodySchema = z.strictObject({ reason: ReasonSchema, days });
export type ExtendLicenseBody = z.input<typeof ExtendLicenseBodySchema>;

/** POST …/customers/{userId}/licenses: a complimentary license, valid for `days` from now. */
export const IssueLicenseBodySchema = z.strictObject({ reason: ReasonSchema, maxNodes: QuantitySchema, days });
export type IssueLicenseBody = z.input<typeof IssueLicenseBodySchema>;

/** POST …/invoices/{invoiceId}/refund: `amount` in the invoice's minor unit (cents); whole when left out. */
export const RefundInvoiceBodySchema = z.strictObject({
  reason: ReasonSchema,
  amount: z
    .number({ error: 'The amount must be a whole number of cents' })
    .int('The amount must be a whole number of cents')
    .min(1, 'The amount must be at least 1 cent')
    .optional(),
});
export type RefundInvoiceBody = z.input<typeof RefundInvoiceBodySchema>;

/**
 * POST …/invoices/{invoiceId}/credit: `amount` (cents; all that is left when left out) goes to the
 * customer's balance and is taken off their next payments, instead of back to the card. What was
 * refunded and credited of an invoice together never exceeds what was paid.
 */
export const CreditInvoiceBodySchema = RefundInvoiceBodySchema;
export type CreditInvoiceBody = z.input<typeof CreditInvoiceBodySchema>;

export const ConsoleLicenseParamsSchema = z.strictObject({ licenseKey: LicenseKeySchema });
export const ConsoleNodeParamsSchema = z.strictObject({
  licenseKey: LicenseKeySchema,
  nodeId: z.uuid('This node id is not valid'),
});
export const ConsoleSubscriptionParamsSchema = z.strictObject({ subscriptionId: OpaqueIdSchema });
export const ConsoleInvoiceParamsSchema = z.strictObject({ invoiceId: OpaqueIdSchema });

/** What every action answers: done, with what it changed (the customer page is then re-read). */
export const ActionResultSchema = z.object({ ok: z.literal(true), message: z.string() });
export type ActionResult = z.infer<typeof ActionResultSchema>;

/**
 * POST …/customers/{userId}/billing-details: the customer's billing details replaced as a whole, with
 * the customer's own form's rules (`details` is the body of PUT /api/billing/details). They apply to
 * later invoices only; issued ones keep the details they were issued with.
 */
export const UpdateCustomerBillingDetailsBodySchema = z.strictObject({
  reason: ReasonSchema,
  details: UpdateBillingDetailsBodySchema,
});
export type UpdateCustomerBillingDetailsBody = z.input<typeof UpdateCustomerBillingDetailsBodySchema>;
