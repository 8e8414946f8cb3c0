import type { Clock } from '../../../lib/clock';
import type { PaymentGateway } from '../gateway';
import { localRepository as repo } from './local.repository';

/**
 * What a customer's invoice list says of an invoice paid back wholly or in part (the status is a
 * free word in the contract; the stored status stays 'paid', as Stripe's does).
 */
export function refundStatus(status: string, amountPaid: number, refunded: number): string {
  if (status !== 'paid' || refunded <= 0) return status;
  return refunded >= amountPaid ? 'refunded' : 'partially_refunded';
}

/**
 * Refunds of the local engine: a row in its `invoice_refunds` table, written in billing's
 * transaction with the invoice row locked. There is no card network behind the local engine, so a
 * refund cannot fail once billing has checked the amount.
 */
export function createLocalRefunds(deps: { clock: Clock; newId: () => string }) {
  return {
    async findRefundable(tx, id) {
      const found = await repo.lockInvoiceWithRefunds(tx, id);
      if (!found) return undefined;
      const { invoice: i, refunded } = found;
      return {
        id: i.id,
        number: i.number,
        status: i.status,
        currency: i.currency,
        amountPaid: i.amountPaid,
        amountRefunded: refunded,
        owner: i.userId ? { userId: i.userId } : null,
      };
    },

    async refund(tx, invoice, amount, opId) {
      const id = deps.newId();
      await repo.insertRefund(tx, {
        id,
        invoiceId: invoice.id,
        amount,
        currency: invoice.currency,
        opId,
        createdAt: deps.clock.now(),
      });
      return { id, amount, currency: invoice.currency };
    },
  } satisfies Pick<PaymentGateway, 'findRefundable' | 'refund'>;
}
