import type Stripe from 'stripe';
import type { ChangePreview, Invoice, SubscriptionEndReason, SubscriptionStatus } from '@portal/contract';

/** Stripe's subscription statuses as ours. */
export const STATUS: Record<string, SubscriptionStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  canceled: 'canceled',
};

/**
 * Why Stripe ended a subscription, in our words: Stripe's retries ran out (or the first payment
 * never came) is ended for non-payment; a dispute ends it at once; else it was cancelled.
 */
export function endReasonOf(s: Pick<Stripe.Subscription, 'status' | 'cancellation_details'>): SubscriptionEndReason {
  if (s.status === 'incomplete_expired') return 'unpaid';
  switch (s.cancellation_details?.reason) {
    case 'payment_failed':
      return 'unpaid';
    case 'payment_disputed':
      return 'ended_now';
    default:
      return 'cancelled';
  }
}

export const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);
export const fromUnix = (s: number) => new Date(s * 1000);

/** Net, tax and total of a Stripe invoice: the tax is what Stripe added (Stripe Tax), none without it. */
export function stripeTotals(i: Pick<Stripe.Invoice, 'total' | 'total_excluding_tax' | 'amount_due'>) {
  const total = i.total ?? i.amount_due;
  const subtotal = i.total_excluding_tax ?? total;
  return { subtotal, tax: total - subtotal, total };
}

/** The period an invoice is for: its first line's (Stripe's own period fields are when its items were added). */
export function periodOf(i: Pick<Stripe.Invoice, 'lines' | 'period_start' | 'period_end'>) {
  const line = i.lines?.data?.[0];
  return { periodStart: fromUnix(line?.period.start ?? i.period_start), periodEnd: fromUnix(line?.period.end ?? i.period_end) };
}

export function toInvoice(i: Stripe.Invoice): Invoice {
  const period = periodOf(i);
  return {
    id: i.id ?? '',
    number: i.number ?? i.id ?? '',
    status: i.status ?? 'draft',
    amountDue: i.amount_due,
    amountPaid: i.amount_paid,
    // Figures of tax only where Stripe added some (Stripe Tax).
    ...(stripeTotals(i).tax !== 0 ? stripeTotals(i) : {}),
    currency: i.currency,
    created: fromUnix(i.created).toISOString(),
    periodStart: period.periodStart.toISOString(),
    periodEnd: period.periodEnd.toISOString(),
    url: i.hosted_invoice_url ?? i.invoice_pdf ?? null,
  };
}

/** Stripe's preview invoice of a change as the portal's preview: what is charged now, and the next renewal. */
export function toChangePreview(inv: Stripe.Invoice, next: { nextRenewalAt: Date; nextRenewalAmount: number }): ChangePreview {
  const total = inv.total ?? inv.amount_due;
  const t = stripeTotals(inv);
  return {
    amountDue: inv.amount_due,
    subtotal: t.subtotal,
    ...(t.tax !== 0
      ? {
          tax: t.tax,
          total: t.total,
          taxLines: [{ rateBp: t.subtotal ? Math.round((t.tax * 10000) / t.subtotal) : 0, net: t.subtotal, tax: t.tax }],
          taxNote: null,
        }
      : {}),
    creditApplied: Math.max(0, total - inv.amount_due),
    currency: inv.currency,
    nextRenewalAt: next.nextRenewalAt.toISOString(),
    nextRenewalAmount: next.nextRenewalAmount,
    lines: previewLinesOf(inv),
  };
}

/** A preview invoice's lines as the portal shows them. */
export const previewLinesOf = (inv: Stripe.Invoice) =>
  inv.lines.data.map((l) => ({
    description: l.description ?? '',
    quantity: l.quantity ?? 1,
    unitAmount: Math.round(Number(String(l.pricing?.unit_amount_decimal ?? l.amount / (l.quantity || 1)))),
    amount: l.amount,
    periodStart: fromUnix(l.period.start).toISOString(),
    periodEnd: fromUnix(l.period.end).toISOString(),
  }));
