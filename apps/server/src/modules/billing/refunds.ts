import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '../../lib/errors';
import type { RefundableInvoice } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { formatMoney } from './billing-documents';
import { billingRepository as repo } from './billing.repository';

/** What went back: money to the card (refund), or to the customer's balance for their next charges (credit). */
export type GiveBack = 'refund' | 'credit';
export type GivenBack = { userId: string; number: string; amount: number; currency: string; left: number };

const WORD = { refund: 'refunded', credit: 'credited' } as const;

/**
 * How much of an invoice may go back now: what was paid minus what was refunded or credited
 * already. Billing checks it (one rule for both providers and both ways) before a gateway is asked.
 */
export function refundableAmount(inv: RefundableInvoice, requested: number | undefined, kind: GiveBack = 'refund'): number {
  const money = (n: number) => formatMoney(n, inv.currency);
  if (inv.status !== 'paid' || inv.amountPaid <= 0) {
    throw new AppError('CONFLICT', `Invoice ${inv.number} has no payment to give back`);
  }
  const left = inv.amountPaid - inv.amountReturned;
  if (left <= 0) throw new AppError('CONFLICT', `Invoice ${inv.number} has already been refunded or credited in full`);
  if (requested !== undefined && requested > left) {
    throw new AppError(
      'CONFLICT',
      `At most ${money(left)} of invoice ${inv.number} can be ${WORD[kind]}: ${money(inv.amountPaid)} was paid` +
        (inv.amountReturned > 0 ? ` and ${money(inv.amountReturned)} has been refunded or credited already` : ''),
    );
  }
  return requested ?? left;
}

/**
 * Refunds and credits (the vendor's console): part of a paid invoice goes back through the gateway
 * that holds the invoice, in one transaction with the customer's activity entry.
 */
export function createRefunds(ctx: BillingContext) {
  const { db, audit } = ctx;

  /**
   * Gives back `amount` (minor units; all that is left when undefined) of invoice `invoiceId`,
   * whoever's it is; `actor` is who the customer's activity names. Unknown or no longer a
   * customer's: 404; nothing (more) to give back: 409.
   */
  async function giveBack(kind: GiveBack, invoiceId: string, amount: number | undefined, actor: string): Promise<GivenBack> {
    const opId = randomUUID();
    return db.transaction(async (tx) => {
      for (const gateway of ctx.gateways) {
        const inv = await gateway.findRefundable(tx, invoiceId);
        if (!inv) continue;
        const owner = inv.owner;
        const userId =
          owner && 'userId' in owner
            ? owner.userId
            : owner
              ? (await repo.findCustomerByProviderId(tx, owner.customerId))?.userId
              : undefined;
        if (!userId) break;
        const wanted = refundableAmount(inv, amount, kind);
        const made = await gateway[kind](tx, inv, wanted, opId);
        const left = inv.amountPaid - inv.amountReturned - made.amount;
        await audit.record(tx, {
          type: kind === 'refund' ? 'invoice_refunded' : 'invoice_credited',
          userId,
          actor,
          invoice: { id: inv.id, number: inv.number },
          amount: made.amount,
          currency: made.currency,
          inFull: left <= 0,
        });
        return { userId, number: inv.number, amount: made.amount, currency: made.currency, left };
      }
      throw notFound('The invoice');
    });
  }

  return {
    refundInvoice: (invoiceId: string, amount: number | undefined, actor: string) => giveBack('refund', invoiceId, amount, actor),
    creditInvoice: (invoiceId: string, amount: number | undefined, actor: string) => giveBack('credit', invoiceId, amount, actor),
  };
}
