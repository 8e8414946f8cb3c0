import type { PaymentFailing } from '@portal/contract';
import type { Tx } from '../../db/client';
import type { PaymentGateway } from '../../providers/billing/gateway';
import type { SubscriptionRow } from './billing.repository';
import { paymentTrouble } from './transition';

export type PaymentFailingDeps = {
  graceDays: number;
  gatewayFor(kind: string): PaymentGateway;
  log: { warn: (details: Record<string, unknown>, message: string) => void };
};

/** An unpaid invoice of a failing payment, as the dunning e-mails and pages name it. */
export type OpenInvoice = { id: string; number: string; amountDue: number; currency: string };

/** What a failing payment's invoices still ask for: every open one's amount due, less what was paid on it. */
export function amountOwed(invoices: readonly { status: string; amountDue: number; amountPaid: number }[]): number {
  return invoices.filter((i) => i.status === 'open').reduce((sum, i) => sum + i.amountDue - i.amountPaid, 0);
}

/**
 * The open invoice of a failing payment, from the gateway that holds it (the built-in engine's
 * own, or the one Stripe lists and retries): the first one's number, and what paying settles,
 * every open invoice of the subscription (one, as a rule). Undefined when none is open.
 */
export async function openInvoiceOf(
  tx: Tx,
  row: SubscriptionRow,
  gatewayFor: (kind: string) => PaymentGateway,
): Promise<OpenInvoice | undefined> {
  const invoices = await gatewayFor(row.provider).listInvoices(tx, row);
  const first = invoices.find((i) => i.status === 'open');
  if (!first) return undefined;
  return { id: first.id, number: first.number, currency: first.currency, amountDue: amountOwed(invoices) };
}

/**
 * The dunning state the portal shows for a subscription: the dates from `paymentTrouble` (the one
 * place they are derived), the amount from the open invoice (`openInvoiceOf`). When the provider
 * lists none, or cannot be reached, the subscription's price for one period stands in, without an
 * invoice number: the banner still tells the customer what is owed and until when the license works.
 */
export async function paymentFailingOf(tx: Tx, row: SubscriptionRow, deps: PaymentFailingDeps): Promise<PaymentFailing | null> {
  const trouble = paymentTrouble(row, deps.graceDays);
  if (!trouble) return null;
  let open: OpenInvoice | undefined;
  try {
    open = await openInvoiceOf(tx, row, deps.gatewayFor);
  } catch (err) {
    deps.log.warn({ err, subscription: row.providerId }, 'open invoice not read: the price stands in');
  }
  return {
    amountDue: open ? open.amountDue : row.unitAmount * row.quantity,
    currency: open ? open.currency : row.currency,
    invoiceNumber: open ? open.number : null,
    failingSince: trouble.failingSince.toISOString(),
    accessUntil: trouble.accessUntil.toISOString(),
    nextAttemptAt: trouble.nextAttemptAt ? trouble.nextAttemptAt.toISOString() : null,
  };
}
