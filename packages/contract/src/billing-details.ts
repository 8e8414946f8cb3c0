import { z } from 'zod';
import { checkTaxId, isCountryCode, needsRegion, TAX_ID_STATUSES, TAX_ID_TYPES } from './billing-details-rules';

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
const optionalText = (label: string, max: number) =>
  text(label, max)
    .nullish()
    .transform((v) => (v ? v : null));

export const CountrySchema = z
  .string({ error: 'Choose the country of your billing address' })
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'Choose the country of your billing address');

export const MAX_INVOICE_RECIPIENTS = 5;

/** PUT /api/billing/details: the whole set of billing details (what is left out is cleared). */
export const UpdateBillingDetailsBodySchema = z
  .strictObject({
    legalName: optionalText('The company name', 200),
    country: CountrySchema,
    line1: optionalText('Address line 1', 200),
    line2: optionalText('Address line 2', 200),
    postalCode: optionalText('The postal code', 20),
    city: optionalText('The city', 100),
    region: optionalText('The state or region', 100),
    taxId: z
      .strictObject({
        type: z.enum(TAX_ID_TYPES, { error: `The tax ID type must be one of ${TAX_ID_TYPES.join(', ')}` }),
        value: text('The tax ID', 40).min(1, 'Enter the tax ID, or remove it'),
      })
      .nullish()
      .transform((v) => v ?? null),
    recipients: z
      .array(z.email('Each invoice recipient must be an e-mail address').max(254).toLowerCase(), {
        error: 'Invoice recipients must be a list of e-mail addresses',
      })
      .max(MAX_INVOICE_RECIPIENTS, `At most ${MAX_INVOICE_RECIPIENTS} invoice recipients`)
      .optional()
      .transform((v) => [...new Set(v ?? [])]),
  })
  .superRefine((b, ctx) => {
    if (needsRegion(b.country) && !b.region) {
      ctx.addIssue({
        code: 'custom',
        path: ['region'],
        message: 'Enter the state or region: addresses in this country need one',
      });
    }
    if (b.taxId) {
      const checked = checkTaxId(b.taxId.type, b.taxId.value, b.country);
      if ('message' in checked) ctx.addIssue({ code: 'custom', path: ['taxId', 'value'], message: checked.message });
    }
  });
export type UpdateBillingDetailsBody = z.input<typeof UpdateBillingDetailsBodySchema>;

export const TaxIdSchema = z.object({
  type: z.enum(TAX_ID_TYPES),
  value: z.string(),
  status: z.enum(TAX_ID_STATUSES),
  /** When VIES last answered for it (null: never). */
  checkedAt: z.string().nullable(),
});
export type TaxId = z.infer<typeof TaxIdSchema>;

export const BillingDetailsSchema = z.object({
  legalName: z.string().nullable(),
  country: z.string(),
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  taxId: TaxIdSchema.nullable(),
  recipients: z.array(z.string()),
  updatedAt: z.string(),
});
export type BillingDetails = z.infer<typeof BillingDetailsSchema>;
/** GET and PUT /api/billing/details: null until the customer gives them. */
export const BillingDetailsResponseSchema = z.object({
  details: BillingDetailsSchema.nullable(),
  /** Present (true) while a subscription waits for the billing address before Stripe Tax applies to it. */
  taxAddressNeeded: z.literal(true).optional(),
});
export type BillingDetailsResponse = z.infer<typeof BillingDetailsResponseSchema>;
