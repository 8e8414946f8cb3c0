import { z } from 'zod';
import { INTERVALS, INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from './billing';
import { PageQuerySchema, pageOf } from './common';
import { StaffAuditEntrySchema } from './console-customers';
import { LICENSE_STATUSES } from './licenses';

/** GET /api/console/overview: figures now, in the minor unit of `currency`, and the last 12 months. */
export const OverviewMonthSchema = z.object({
  /** `YYYY-MM` (UTC). */
  month: z.string(),
  /** MRR (as the headline's) of the subscriptions alive at the end of the month; the current month's is the headline. */
  mrr: z.number().int(),
  /** Paid invoices' amounts in the month, less the refunds made in it (credits are not money back). */
  revenue: z.number().int(),
  /** Subscriptions started in the month (checkout) and ended in it (at their period end, or cancelled now). */
  newSubscriptions: z.number().int(),
  churnedSubscriptions: z.number().int(),
});
export type OverviewMonth = z.infer<typeof OverviewMonthSchema>;

export const OverviewDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  day: z.string(),
  /** License validations answered that day (every answer, valid or not). */
  validations: z.number().int(),
  /** Of those, answered valid. */
  valid: z.number().int(),
});
export type OverviewDay = z.infer<typeof OverviewDaySchema>;

export const OverviewSchema = z.object({
  currency: z.string(),
  /**
   * Every subscription that gives access (active or past due), those set to cancel at the period
   * end included until they end: unit amount × quantity, yearly ones divided by 12 (cents, rounded).
   */
  mrr: z.number().int(),
  arr: z.number().int(),
  activeSubscriptions: z.number().int(),
  pastDueSubscriptions: z.number().int(),
  activeNodes: z.number().int(),
  activeLicenses: z.number().int(),
  /** Customer accounts, with or without a subscription. */
  customers: z.number().int(),
  /** Today (UTC) and the 29 days before. */
  newSubscriptions: z.number().int(),
  churnedSubscriptions: z.number().int(),
  failedPayments: z.number().int(),
  /**
   * MRR at risk: the part of the MRR (the same definition) of the subscriptions whose payment is
   * failing (past due, in grace), and how many they are.
   */
  mrrAtRisk: z.number().int(),
  subscriptionsAtRisk: z.number().int(),
  /** Subscriptions renewing on a default card that expires before the renewal date. */
  cardsExpiringBeforeRenewal: z.number().int(),
  months: z.array(OverviewMonthSchema),
  /** The last 30 days, today last (its count is a few seconds behind: validations are counted in memory). */
  days: z.array(OverviewDaySchema),
});
export type Overview = z.infer<typeof OverviewSchema>;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).optional();

/** What every console list takes: `?page&size&order` and `format=csv` for a download of all rows. */
const listQuery = <S extends readonly [string, ...string[]]>(sorts: S) =>
  PageQuerySchema.extend({
    sort: optionalEnum(sorts, 'sort'),
    order: optionalEnum(['asc', 'desc'] as const, 'order'),
    format: optionalEnum(['json', 'csv'] as const, 'format'),
    q: z.string().trim().max(200, 'A filter can be at most 200 characters').optional(),
  });

export const CUSTOMER_SORTS = ['createdAt', 'email', 'name'] as const;
export const ListCustomersQuerySchema = listQuery(CUSTOMER_SORTS);
export type ListCustomersQuery = z.input<typeof ListCustomersQuerySchema>;
export const ConsoleCustomerRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  company: z.string().nullable(),
  createdAt: z.string(),
  activeSubscriptions: z.number().int(),
  licenses: z.number().int(),
});
export type ConsoleCustomerRow = z.infer<typeof ConsoleCustomerRowSchema>;
export const ConsoleCustomerPageSchema = pageOf(ConsoleCustomerRowSchema);

export const SUBSCRIPTION_SORTS = ['createdAt', 'currentPeriodEnd', 'amount'] as const;
export const ListSubscriptionsQuerySchema = listQuery(SUBSCRIPTION_SORTS).extend({
  status: optionalEnum(SUBSCRIPTION_STATUSES, 'status'),
  interval: optionalEnum(INTERVALS, 'interval'),
  cancelAtPeriodEnd: optionalEnum(['true', 'false'] as const, 'cancelAtPeriodEnd'),
});
export type ListSubscriptionsQuery = z.input<typeof ListSubscriptionsQuerySchema>;
export const ConsoleSubscriptionRowSchema = z.object({
  subscriptionId: z.string(),
  userId: z.string(),
  email: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  interval: z.enum(INTERVALS),
  quantity: z.number().int(),
  /** unit amount × quantity per interval, in cents. */
  amount: z.number().int(),
  currency: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  createdAt: z.string(),
  /** A failing payment (past due): the engine's next retry (null when none is left, or Stripe retries). */
  nextAttemptAt: z.string().nullable(),
  /** A failing payment: the end of its grace, until when its license stays valid; null when not failing. */
  accessUntil: z.string().nullable(),
});
export type ConsoleSubscriptionRow = z.infer<typeof ConsoleSubscriptionRowSchema>;
export const ConsoleSubscriptionPageSchema = pageOf(ConsoleSubscriptionRowSchema);

export const LICENSE_SORTS = ['createdAt', 'expiresAt', 'activeNodes'] as const;
export const ListLicensesQuerySchema = listQuery(LICENSE_SORTS).extend({
  status: optionalEnum(LICENSE_STATUSES, 'status'),
  /** Only licenses expiring within this many days from now (and not yet expired). */
  expiringWithinDays: z
    .string()
    .regex(/^\d{1,4}$/, 'expiringWithinDays must be a whole number of days')
    .transform(Number)
    .optional(),
  complimentary: optionalEnum(['true', 'false'] as const, 'complimentary'),
});
export type ListLicensesQuery = z.input<typeof ListLicensesQuerySchema>;
export const ConsoleLicenseRowSchema = z.object({
  licenseKey: z.string(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(LICENSE_STATUSES),
  maxNodes: z.number().int(),
  activeNodes: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
  subscriptionId: z.string().nullable(),
});
export type ConsoleLicenseRow = z.infer<typeof ConsoleLicenseRowSchema>;
export const ConsoleLicensePageSchema = pageOf(ConsoleLicenseRowSchema);

export const INVOICE_SORTS = ['created', 'amount'] as const;
export const ListInvoicesQuerySchema = listQuery(INVOICE_SORTS).extend({
  status: optionalEnum(INVOICE_STATUSES, 'status'),
});
export type ListInvoicesQuery = z.input<typeof ListInvoicesQuerySchema>;
export const ConsoleInvoiceRowSchema = z.object({
  id: z.string(),
  number: z.string(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  status: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  currency: z.string(),
  created: z.string(),
});
export type ConsoleInvoiceRow = z.infer<typeof ConsoleInvoiceRowSchema>;
export const ConsoleInvoicePageSchema = pageOf(ConsoleInvoiceRowSchema);

/** GET /api/console/audit: the staff audit log, newest first. */
export const ListStaffAuditQuerySchema = PageQuerySchema.extend({
  userId: z.uuid('This customer id is not valid').optional(),
});
export const StaffAuditPageSchema = pageOf(StaffAuditEntrySchema);

/** The longest period a tax report covers, in days (a year, leap day included). */
export const TAX_REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A real date of the calendar as YYYY-MM-DD (not 2025-02-30). */
const isCalendarDay = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return DAY_RE.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};
const reportDay = (label: string) =>
  z
    .string({ error: `Give ${label} as a date (YYYY-MM-DD)` })
    .regex(DAY_RE, `Give ${label} as a date (YYYY-MM-DD)`)
    .refine((v) => !DAY_RE.test(v) || isCalendarDay(v), `${label} is not a date of the calendar`);
/** Days from `from` to `to`, both counted (UTC dates, YYYY-MM-DD). */
export const daysInPeriod = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

/**
 * GET /api/console/reports/tax?from&to: UTC dates, both included; `format=csv` for a download.
 * At most TAX_REPORT_MAX_DAYS days, `from` not after `to`.
 */
export const TaxReportQuerySchema = z
  .strictObject({
    from: reportDay('the start date (from)'),
    to: reportDay('the end date (to)'),
    format: optionalEnum(['json', 'csv'] as const, 'format'),
  })
  .superRefine((q, ctx) => {
    if (!isCalendarDay(q.from) || !isCalendarDay(q.to)) return;
    if (q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The start date (from) must be on or before the end date (to)' });
    } else if (daysInPeriod(q.from, q.to) > TAX_REPORT_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `A tax report covers at most ${TAX_REPORT_MAX_DAYS} days` });
    }
  });
export type TaxReportQuery = z.input<typeof TaxReportQuerySchema>;

/** How a sale was taxed (docs/decisions/110-invoicing-and-tax.md); `none`: the seller was not VAT-registered. */
export const TAX_REPORT_REGIMES = ['domestic', 'eu_consumer', 'reverse_charge', 'export', 'none'] as const;
export type TaxReportRegime = (typeof TAX_REPORT_REGIMES)[number];

/**
 * One line of the tax report: the invoices issued in the period for one currency, regime, country
 * (whose rate applied: the seller's for domestic sales, the buyer's otherwise; null when unknown)
 * and rate, less the credit notes issued in the period against such invoices. Minor units.
 */
export const TaxReportRowSchema = z.object({
  currency: z.string(),
  regime: z.enum(TAX_REPORT_REGIMES),
  country: z.string().nullable(),
  rateBp: z.number().int(),
  invoices: z.number().int(),
  creditNotes: z.number().int(),
  invoicedNet: z.number().int(),
  invoicedTax: z.number().int(),
  creditedNet: z.number().int(),
  creditedTax: z.number().int(),
  /** invoicedNet − creditedNet */
  net: z.number().int(),
  /** invoicedTax − creditedTax */
  tax: z.number().int(),
});
export type TaxReportRow = z.infer<typeof TaxReportRowSchema>;

/** A currency's totals (net of credit notes): taxed sales and their tax, reverse-charged, exported and untaxed sales. */
export const TaxReportTotalSchema = z.object({
  currency: z.string(),
  /** Net of domestic and EU consumer sales (the ones tax was charged on). */
  taxedNet: z.number().int(),
  tax: z.number().int(),
  reverseChargeNet: z.number().int(),
  exportNet: z.number().int(),
  /** Sales while the seller was not VAT-registered (no tax on the invoice). */
  untaxedNet: z.number().int(),
  net: z.number().int(),
  /** net + tax */
  gross: z.number().int(),
});
export type TaxReportTotal = z.infer<typeof TaxReportTotalSchema>;

export const TaxReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(TaxReportRowSchema),
  totals: z.array(TaxReportTotalSchema),
});
export type TaxReport = z.infer<typeof TaxReportSchema>;
