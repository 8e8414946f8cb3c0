import { randomUUID } from 'node:crypto';
import type { CheckoutPreview, Interval } from '@portal/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import { ADDRESS_NOT_LOCATED, type TaxCustomer } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { billingRepository as repo } from './billing.repository';
import { billingDetailsRepository as details, type BillingDetailsRow } from './billing-details.repository';

export { ADDRESS_NOT_LOCATED };

/** The saved billing details as the provider's customer keeps them. */
export const taxCustomerOf = (row: BillingDetailsRow, name: string): TaxCustomer => ({
  name: row.legalName ?? name,
  address: {
    country: row.country,
    line1: row.line1,
    line2: row.line2,
    postalCode: row.postalCode,
    city: row.city,
    region: row.region,
  },
  taxId: row.taxIdType && row.taxIdValue ? { type: row.taxIdType, value: row.taxIdValue } : null,
});

/**
 * Tax the payment provider calculates (Stripe Tax, ADR 115): the billing details are written to
 * the provider's customer when they are saved and at checkout, and a running subscription without
 * the provider's tax (bought before it was on, or before the customer gave an address) gets it
 * once the address is saved. Without it (`STRIPE_TAX` off, or the built-in engine) nothing here acts.
 */
export function createProviderTax(ctx: BillingContext) {
  const tax = ctx.gateway.tax;

  /**
   * Writes the details to the customer, and notes when (`taxSyncedAt`); a 400 when the provider
   * cannot place them for tax.
   */
  async function sync(tx: Tx, customerId: string, row: BillingDetailsRow, name: string, opId: string) {
    const { located } = await tax!.syncCustomer(customerId, taxCustomerOf(row, name), opId);
    if (!located) throw new AppError('BAD_REQUEST', ADDRESS_NOT_LOCATED);
    await details.markTaxSynced(tx, row.userId, ctx.clock.now());
  }

  return {
    /** Whether the provider calculates the tax of new subscriptions and previews. */
    on: Boolean(tax),

    /**
     * In the transaction that saved `row`: the provider's customer (if the user has one yet: else
     * checkout makes it with the details) gets them, and each running subscription the tax.
     */
    async detailsSaved(tx: Tx, user: { id: string; name: string }, row: BillingDetailsRow) {
      if (!tax) return;
      const customerId = await ctx.customerIdOf(tx, user.id);
      if (!customerId) return;
      const opId = randomUUID();
      await sync(tx, customerId, row, user.name, opId);
      for (const sub of await repo.runningSubscriptions(tx, user.id, ctx.gateway.kind)) {
        if (await tax.enableFor(sub, opId)) {
          ctx.log.info({ subscription: sub.providerId }, 'automatic tax turned on after the billing address was saved');
        }
      }
    },

    /** At checkout, before the subscription is made: the customer carries the details the tax needs. */
    async beforeCheckout(tx: Tx, userId: string, customerId: string, name: string) {
      if (!tax) return;
      const row = await details.find(tx, userId);
      if (row) await sync(tx, customerId, row, name, randomUUID());
    },

    /** A checkout's preview with the provider's tax, once the details are known (else undefined). */
    async previewCheckout(
      tx: Tx,
      user: { id: string; name: string },
      interval: Interval,
      quantity: number,
    ): Promise<CheckoutPreview | undefined> {
      const row = tax ? await details.find(tx, user.id) : undefined;
      return row ? tax!.previewCheckout(taxCustomerOf(row, user.name), interval, quantity) : undefined;
    },

    /**
     * A running subscription waits for the customer's address before the provider's tax applies:
     * `add` when there are no billing details, `confirm` when they were saved without reaching the
     * provider (before Stripe Tax was turned on); saving them writes them and turns the tax on.
     */
    async addressNeeded(tx: Tx, userId: string): Promise<'add' | 'confirm' | null> {
      if (!tax) return null;
      const row = await details.find(tx, userId);
      if (row?.taxSyncedAt) return null;
      if ((await repo.runningSubscriptions(tx, userId, ctx.gateway.kind)).length === 0) return null;
      return row ? 'confirm' : 'add';
    },
  };
}
export type ProviderTaxSync = ReturnType<typeof createProviderTax>;
