import { z } from 'zod';
import { BillingDetailsSchema } from './billing-details';
import { InvoiceSchema, INTERVALS, SUBSCRIPTION_END_REASONS, SUBSCRIPTION_STATUSES } from './billing';
import { isStorableText, STORABLE_TEXT_MESSAGE } from './common';
import { LicenseSchema } from './licenses';
import { StaffAuditActionSchema } from './staff-audit';
import { AccountProfileSchema } from './users';

/**
 * GET /api/console/search?q=: at least 2 characters, at most 200; answers up to 20 results, at most
 * 5 of each kind, exact matches first, then prefixes, then substrings (of 3 characters or more).
 */
export const CONSOLE_SEARCH_MIN_LENGTH = 2;
export const CONSOLE_SEARCH_LIMIT = 20;
export const CONSOLE_SEARCH_PER_KIND = 5;
export const ConsoleSearchQuerySchema = z.strictObject({
  q: z
    .string({ error: 'Type something to search for' })
    .trim()
    .min(CONSOLE_SEARCH_MIN_LENGTH, `Type at least ${CONSOLE_SEARCH_MIN_LENGTH} characters`)
    .max(200, 'A search can be at most 200 characters')
    .refine(isStorableText, STORABLE_TEXT_MESSAGE),
});
export type ConsoleSearchQuery = z.input<typeof ConsoleSearchQuerySchema>;

export const SEARCH_RESULT_KINDS = ['customer', 'license', 'node', 'subscription', 'invoice'] as const;
export type SearchResultKind = (typeof SEARCH_RESULT_KINDS)[number];
/** How a result matched: the whole text (an e-mail, a key, a number), its start, or a part inside it. */
export const SEARCH_MATCHES = ['exact', 'prefix', 'substring'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

/** One hit: what matched (`label`, e.g. the license key), whose it is (`userId`, `email`). */
export const SearchResultSchema = z.object({
  kind: z.enum(SEARCH_RESULT_KINDS),
  userId: z.string(),
  /** The thing that matched: a name, a license key, a hostname, a subscription id, an invoice number. */
  label: z.string(),
  /** The customer it belongs to, as a reader knows them: "Ada Lovelace <ada@example.com>". */
  customer: z.string(),
  /** The matched object's own id where it has one (license key, node id, subscription id, invoice id). */
  subjectId: z.string().nullable(),
  match: z.enum(SEARCH_MATCHES),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
/** The results, best first; `more`: some matches were left out (type more of the text to narrow). */
export const SearchResultsSchema = z.object({ items: z.array(SearchResultSchema), more: z.boolean() });
export type SearchResults = z.infer<typeof SearchResultsSchema>;

export const CustomerParamsSchema = z.strictObject({ userId: z.uuid('This customer id is not valid') });

export const ConsoleCustomerProfileSchema = z.object({ id: z.string(), ...AccountProfileSchema.shape });
export type ConsoleCustomerProfile = z.infer<typeof ConsoleCustomerProfileSchema>;

/**
 * A failing payment (a past due subscription, in its grace) as staff see it: since when, until when
 * the license stays valid, the engine's next retry (null when Stripe retries, or none is left
 * before the grace ends) and what the open invoices ask for.
 */
export const ConsoleDunningSchema = z.object({
  failingSince: z.string(),
  accessUntil: z.string(),
  nextAttemptAt: z.string().nullable(),
  /** Due and not yet paid on the subscription's open invoices, in cents of `currency`. */
  amountDue: z.number().int(),
  currency: z.string(),
});
export type ConsoleDunning = z.infer<typeof ConsoleDunningSchema>;

export const ConsoleSubscriptionSchema = z.object({
  /** The provider's subscription id (the portal's `stripeId`). */
  subscriptionId: z.string(),
  provider: z.enum(['local', 'stripe']),
  status: z.enum(SUBSCRIPTION_STATUSES),
  quantity: z.number().int(),
  interval: z.enum(INTERVALS),
  plan: z.string(),
  unitAmount: z.number().int(),
  currency: z.string(),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /** Why it ended (unpaid: ended for non-payment); null while it runs. */
  endedReason: z.enum(SUBSCRIPTION_END_REASONS).nullable(),
  licenseKey: z.string().nullable(),
  createdAt: z.string(),
  invoices: z.array(InvoiceSchema),
  /** Its payment is failing (past due): null otherwise. */
  dunning: ConsoleDunningSchema.nullable(),
});
export type ConsoleSubscription = z.infer<typeof ConsoleSubscriptionSchema>;

/** A license as the customer's own list has it, with the provider's subscription id under its own name. */
export const ConsoleLicenseSchema = z.object({
  ...LicenseSchema.omit({ stripeId: true }).shape,
  /** null for a complimentary (hand-issued) license. */
  subscriptionId: z.string().nullable(),
});
export type ConsoleLicense = z.infer<typeof ConsoleLicenseSchema>;

export const ConsoleNodeSchema = z.object({
  id: z.string(),
  licenseKey: z.string(),
  fingerprint: z.string(),
  hostname: z.string().nullable(),
  activatedAt: z.string(),
  lastSeenAt: z.string(),
});
export type ConsoleNode = z.infer<typeof ConsoleNodeSchema>;

/** A card as staff see it: brand, last 4 and expiry only. */
export const ConsoleCardSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export type ConsoleCard = z.infer<typeof ConsoleCardSchema>;

/** An entry of the customer's own activity log (as the customer reads it). */
export const ConsoleActivitySchema = z.object({
  id: z.string(),
  action: z.string(),
  summary: z.string(),
  /** True when the vendor's staff did it (the customer reads "by the vendor's staff"). */
  byStaff: z.boolean(),
  createdAt: z.string(),
});
export type ConsoleActivity = z.infer<typeof ConsoleActivitySchema>;

export const ConsoleSignInSchema = z.object({
  method: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** Still usable (not expired, not ended). */
  active: z.boolean(),
});
export type ConsoleSignIn = z.infer<typeof ConsoleSignInSchema>;

/** A row of the staff audit log: who did what, to whom, why. */
export const StaffAuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  staffEmail: z.string(),
  action: StaffAuditActionSchema,
  reason: z.string(),
  userId: z.string().nullable(),
  /** The customer the action was about, while their account exists; `name` null when they gave none. */
  customer: z.object({ email: z.string(), name: z.string().nullable() }).nullable(),
  subject: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type StaffAuditEntry = z.infer<typeof StaffAuditEntrySchema>;

/** GET /api/console/customers/{userId}: the customer page (recent activity and sign-ins, 50 each). */
export const ConsoleCustomerSchema = z.object({
  profile: ConsoleCustomerProfileSchema,
  subscriptions: z.array(ConsoleSubscriptionSchema),
  licenses: z.array(ConsoleLicenseSchema),
  nodes: z.array(ConsoleNodeSchema),
  cards: z.array(ConsoleCardSchema),
  activity: z.array(ConsoleActivitySchema),
  signIns: z.array(ConsoleSignInSchema),
  staffActions: z.array(StaffAuditEntrySchema),
  /** Who the customer's invoices are made out to (null until given), with the tax ID's check. */
  billingDetails: BillingDetailsSchema.nullable(),
});
export type ConsoleCustomer = z.infer<typeof ConsoleCustomerSchema>;
