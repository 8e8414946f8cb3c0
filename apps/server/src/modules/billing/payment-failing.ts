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

/**
 * The dunning state the portal shows for a subscription: the dates from `paymentTrouble` (the one
 * place they are derived), the amount from the open invoice its gateway holds (the built-in
 * engine's, or the one Stripe lists). When the provider lists none, or cannot be reached, the
 * subscription's price for one period stands in, without an invoice number: the banner still
 * tells the customer what is owed and until when the license works.
 */
export async function paymentFailingOf(tx: Tx, row: SubscriptionRow, deps: PaymentFailingDeps): Promise<PaymentFailing | null> {
  const trouble = paymentTrouble(row, deps.graceDays);
  if (!trouble) return null;
  let open: { number: string; amountDue: number; currency: string } | undefined;
  try {
    // Paying settles every open invoice of the subscription (one, as a rule): their sum is owed.
    const unpaid = (await deps.gatewayFor(row.provider).listInvoices(tx, row)).filter((i) => i.status === 'open');
    if (unpaid[0]) open = { ...unpaid[0], amountDue: unpaid.reduce((sum, i) => sum + i.amountDue, 0) };
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
