import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '../../lib/errors';
import type { RefundableInvoice } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { formatMoney } from './billing-documents';
import { billingRepository as repo } from './billing.repository';

export type RefundDone = { userId: string; number: string; amount: number; currency: string; left: number };

/**
 * How much of an invoice may go back now: what was paid minus what was paid back already. Billing
 * checks it (one rule for both providers) before a gateway is asked.
 */
export function refundableAmount(inv: RefundableInvoice, requested: number | undefined): number {
  const money = (n: number) => formatMoney(n, inv.currency);
  if (inv.status !== 'paid' || inv.amountPaid <= 0) {
    throw new AppError('CONFLICT', `Invoice ${inv.number} has no payment to refund`);
  }
  const left = inv.amountPaid - inv.amountRefunded;
  if (left <= 0) throw new AppError('CONFLICT', `Invoice ${inv.number} has already been refunded in full`);
  if (requested !== undefined && requested > left) {
    throw new AppError(
      'CONFLICT',
      `At most ${money(left)} of invoice ${inv.number} can be refunded: ${money(inv.amountPaid)} was paid` +
        (inv.amountRefunded > 0 ? ` and ${money(inv.amountRefunded)} has been refunded already` : ''),
    );
  }
  return requested ?? left;
}

/**
 * Refunds (the vendor's console): money of a paid invoice goes back through the gateway that holds
 * the invoice, in one transaction with the customer's activity entry.
 */
export function createRefunds(ctx: BillingContext) {
  const { db, audit } = ctx;

  return {
    /**
     * Pays back `amount` (minor units; all that is left when undefined) of invoice `invoiceId`,
     * whoever's it is; `actor` is who the customer's activity names. Unknown or no longer a
     * customer's: 404; nothing (more) to refund: 409.
     */
    async refundInvoice(invoiceId: string, amount: number | undefined, actor: string): Promise<RefundDone> {
      const opId = randomUUID();
      const done = await db.transaction(async (tx) => {
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
          const wanted = refundableAmount(inv, amount);
          const refund = await gateway.refund(tx, inv, wanted, opId);
          const left = inv.amountPaid - inv.amountRefunded - refund.amount;
          await audit.record(tx, {
            type: 'invoice_refunded',
            userId,
            actor,
            invoice: { id: inv.id, number: inv.number },
            amount: refund.amount,
            currency: refund.currency,
            inFull: left <= 0,
          });
          return { userId, number: inv.number, amount: refund.amount, currency: refund.currency, left };
        }
        throw notFound('The invoice');
      });
      return done;
    },
  };
}
