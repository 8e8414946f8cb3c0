import { randomUUID } from 'node:crypto';
import type { Invoice, PaymentMethod } from '@portal/contract';
import type { Tx } from '../../db/client';
import { notFound } from '../../lib/errors';
import type { PrintableInvoice } from '../../providers/billing/gateway';
import { SYSTEM, toSubscription, type BillingContext } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import { endedNow } from './lifecycle';

/** Invoices are kept for the vendor's books; this replaces the customer's name on them. */
export const DELETED_CUSTOMER = 'Deleted customer';

/** The owner's invoices, their data export, and what account deletion asks of billing. */
export function createInvoicesAndExport(
  ctx: BillingContext,
  cards: { listPaymentMethods(userId: string): Promise<PaymentMethod[]> },
) {
  const { db, clock, log, licenses } = ctx;

  async function listSubscriptions(userId: string) {
    const rows = await repo.listSubscriptions(db, userId);
    const keys = rows.length ? await licenses.keysBySubscription(rows.map((r) => r.id)) : new Map<string, string>();
    return Promise.all(rows.map(async (r) => toSubscription(r, keys.get(r.id) ?? null, await ctx.paymentFailing(db, r))));
  }

  return {
    listSubscriptions,

    async listInvoices(userId: string, subscriptionId: string): Promise<Invoice[]> {
      const sub = await repo.findSubscription(db, userId, subscriptionId);
      if (!sub) throw notFound('The subscription');
      return ctx.gatewayFor(sub.provider).listInvoices(db, sub);
    },

    /** The printable invoice (local engine), or the address of the provider's hosted invoice page. */
    async invoiceDocument(userId: string, id: string): Promise<{ invoice: PrintableInvoice } | { redirect: string }> {
      const customerId = await ctx.customerIdOf(db, userId);
      for (const gateway of ctx.gateways) {
        const doc = await gateway.invoiceDocument(db, { userId, customerId }, id);
        if (doc && 'printable' in doc) return { invoice: doc.printable };
        if (doc) return doc;
      }
      throw notFound('The invoice');
    },

    /** Everything billing holds about the user, for the data export (cards without numbers). */
    async exportForUser(userId: string) {
      const subscriptions = await listSubscriptions(userId);
      let paymentMethods: PaymentMethod[] = [];
      try {
        paymentMethods = await cards.listPaymentMethods(userId);
      } catch (err) {
        log.warn({ err }, 'payment methods left out of the export');
      }
      const subRows = await repo.listSubscriptions(db, userId);
      const invoices: Record<string, unknown>[] = await ctx.local.exportInvoices(db, userId, subRows);
      // Stripe keeps its own invoices: read them live.
      if (ctx.stripe) invoices.push(...(await ctx.stripe.exportInvoices(db, userId, subRows)));
      return { paymentMethods, subscriptions, invoices };
    },

    /**
     * Account deletion: every subscription ends now without further charges and every card is
     * detached, inside the caller's transaction; a remote provider is told after the commit
     * through the outbox. The name and address on kept invoices are replaced.
     */
    async cancelAllNowForUser(tx: Tx, userId: string): Promise<void> {
      const now = clock.now();
      const opId = randomUUID();
      for (const sub of await repo.listSubscriptions(tx, userId)) {
        if (sub.status === 'canceled') continue;
        await ctx.gatewayFor(sub.provider).cancelNow(tx, sub, opId);
        await ctx.transition(tx, sub, endedNow(sub, now), {
          actor: SYSTEM,
          cause: { kind: 'ended_now', reason: 'account_deleted' },
        });
      }
      const customer = await repo.findCustomer(tx, userId);
      if (customer) await ctx.gatewayFor(customer.provider).detachAllCards(tx, customer.providerCustomerId, opId);
    },

    /** Account deletion, after everything else: invoices stay for the books under a neutral name. */
    async anonymiseForUser(tx: Tx, userId: string): Promise<void> {
      for (const gateway of ctx.gateways) await gateway.anonymiseCustomer(tx, userId, DELETED_CUSTOMER);
    },
  };
}
