import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });
const money = { currency: z.string().regex(/^[a-zA-Z]{3}$/), amount: z.number().int() };
const url = z.string().url();

/** Each e-mail template's data: plain JSON (dates as ISO strings, money in minor units). */
export const TEMPLATE_DATA = {
  'sign-in': z.object({ url, minutes: z.number().int().positive() }),
  receipt: z.object({
    number: z.string().min(1),
    paidAt: isoDate,
    currency: money.currency,
    amountPaid: money.amount,
    /** What was bought, for people: "2 × Node license (monthly)". */
    summary: z.string(),
    /** The invoice's lines; a receipt without them shows the summary as its one line. */
    lines: z
      .array(
        z.object({
          description: z.string(),
          quantity: z.number().int(),
          amount: z.number().int(),
          periodStart: isoDate.optional(),
          periodEnd: isoDate.optional(),
        }),
      )
      .default([]),
    /** The printable invoice (local engine) or Stripe's hosted invoice page. */
    url,
  }),
  'payment-failed': z.object({
    number: z.string().min(1),
    currency: money.currency,
    amountDue: money.amount,
    accessUntil: isoDate,
    /** The billing page, where the card is updated. */
    url,
  }),
  /** Three days before a failed payment's grace ends, while it is still unpaid. */
  'payment-reminder': z.object({
    number: z.string().min(1),
    currency: money.currency,
    amountDue: money.amount,
    accessUntil: isoDate,
    url,
  }),
  'renewal-upcoming': z.object({
    summary: z.string(),
    renewsOn: isoDate,
    currency: money.currency,
    amount: money.amount,
    url,
  }),
  'card-expiring': z.object({
    cardBrand: z.string(),
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int(),
    renewsOn: isoDate,
    url,
  }),
  /** A refund or credit of an invoice of the built-in engine: its credit note is attached. */
  'credit-note': z.object({
    number: z.string().min(1),
    invoiceNumber: z.string().min(1),
    kind: z.enum(['refund', 'credit']),
    currency: money.currency,
    total: money.amount,
    issuedAt: isoDate,
    url,
  }),
  'account-deleted': z.object({ deletedAt: isoDate }),
  'subscription-cancelled': z.object({ summary: z.string(), accessUntil: isoDate, url }),
  'subscription-ended': z.object({ summary: z.string(), endedOn: isoDate, url }),
} as const;

export type TemplateName = keyof typeof TEMPLATE_DATA;
export type TemplateData<T extends TemplateName> = z.output<(typeof TEMPLATE_DATA)[T]>;

// Addresses were validated where they entered the portal; a queued row must not fail on a stricter rule.
const to = z.string().min(3);
/** Shown in the log by the file mailer (the sign-in link), so a local start needs no mail server. */
const logHint = z.string().optional();

/**
 * A document of the built-in engine sent with the message, rendered from its stored record when
 * the message is sent (the same bytes as its download); the row holds its id, never the file.
 */
const attach = z
  .array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('invoice'), id: z.string().min(1) }),
      z.object({ kind: z.literal('credit_note'), id: z.string().min(1), userId: z.string().min(1) }),
    ]),
  )
  .optional();

const entry = <T extends TemplateName>(name: T) =>
  z.object({ to, template: z.literal(name), data: TEMPLATE_DATA[name], logHint, attach });

/** An e-mail as queued before templates: already rendered. Rows of this shape may still be queued. */
export const RenderedMailSchema = z.object({ to, subject: z.string(), text: z.string(), html: z.string(), logHint });

export const TemplatedMailSchema = z.discriminatedUnion('template', [
  entry('sign-in'),
  entry('receipt'),
  entry('payment-failed'),
  entry('payment-reminder'),
  entry('renewal-upcoming'),
  entry('card-expiring'),
  entry('credit-note'),
  entry('account-deleted'),
  entry('subscription-cancelled'),
  entry('subscription-ended'),
]);

/** The `email` job: a template with its data, or (rows queued by earlier releases) a rendered message. */
export const EmailJobSchema = z.union([TemplatedMailSchema, RenderedMailSchema]);

/** A templated e-mail as callers enqueue it, typed by its template. */
export type EmailJob = z.input<typeof TemplatedMailSchema>;
export type TemplatedMail = z.output<typeof TemplatedMailSchema>;
export type RenderedMail = z.output<typeof RenderedMailSchema>;
export type MailDocument = NonNullable<TemplatedMail['attach']>[number];
