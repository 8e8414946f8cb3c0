import { randomUUID } from 'node:crypto';
import type { ChangePreview, Interval, Subscription } from '@portal/contract';
import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import type { PaymentGateway, PlannedChange } from '../../providers/billing/gateway';
import { billToOf, type BillingContext, type BillingUser } from './billing-context';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository';
import { assertChangeable, describe, endedNow, hasAccess, mayChange } from './lifecycle';
import type { createRenewals } from './renewals';

/**
 * The owner's changes to a subscription: quantity and interval (charged now), cancel at the period
 * end and re-activate, and the preview of what a change would charge.
 */
export function createSubscriptionChanges(ctx: BillingContext, renewals: Pick<ReturnType<typeof createRenewals>, 'catchUp'>) {
  const { db, clock, audit, outbox, licenses } = ctx;

  /** Locks the owner's subscription, brings it up to date and applies `fn`, all in one transaction. */
  async function mutate(
    user: BillingUser,
    subscriptionId: string,
    fn: (tx: Tx, sub: SubscriptionRow, gateway: PaymentGateway) => Promise<SubscriptionRow>,
  ): Promise<Subscription> {
    const row = await db.transaction(async (tx) => {
      const locked = await repo.findSubscription(tx, user.id, subscriptionId, true);
      if (!locked) throw notFound('The subscription');
      const sub = await renewals.catchUp(tx, locked);
      return fn(tx, sub, ctx.gatewayFor(sub.provider));
    });
    void outbox.kick();
    return ctx.withKey(row);
  }

  return {
    async changeQuantity(user: BillingUser, subscriptionId: string, quantity: number): Promise<Subscription> {
      return mutate(user, subscriptionId, async (tx, sub, gateway) => {
        mayChange(sub, { kind: 'quantity', quantity }, clock.now());
        // The license refuses to shrink below its active nodes before anything is charged.
        await licenses.resizeForSubscription(tx, sub.id, quantity, user.email);
        const billTo = billToOf(user);
        const charge = await gateway.changeQuantity(tx, sub, quantity, billTo, randomUUID());
        const row = await ctx.applyState(tx, sub, charge.state);
        await audit.record(tx, {
          type: 'subscription_quantity_changed',
          userId: user.id,
          actor: user.email,
          subscription: sub,
          from: sub.quantity,
          to: quantity,
          invoice: charge.invoice,
        });
        if (charge.invoice) await ctx.sendReceipt(tx, billTo, charge.invoice, row);
        return row;
      });
    },

    async changeInterval(user: BillingUser, subscriptionId: string, interval: Interval): Promise<Subscription> {
      return mutate(user, subscriptionId, async (tx, sub, gateway) => {
        mayChange(sub, { kind: 'interval', interval }, clock.now());
        const billTo = billToOf(user);
        const charge = await gateway.changeInterval(tx, sub, interval, billTo, randomUUID());
        const row = await ctx.applyState(tx, sub, charge.state);
        await ctx.alignLicense(tx, sub.id, row.currentPeriodEnd, user.email);
        await audit.record(tx, {
          type: 'subscription_interval_changed',
          userId: user.id,
          actor: user.email,
          subscription: sub,
          from: sub.interval,
          to: interval,
          invoice: charge.invoice,
        });
        if (charge.invoice) await ctx.sendReceipt(tx, billTo, charge.invoice, row);
        return row;
      });
    },

    /**
     * Cancel at period end: the license stays valid until then. Cancelling twice changes nothing.
     * `actor` is the customer, or the vendor's staff acting for them (the console).
     */
    async cancel(user: BillingUser, subscriptionId: string, actor: string = user.email): Promise<Subscription> {
      return mutate(user, subscriptionId, async (tx, sub, gateway) => {
        if (!mayChange(sub, { kind: 'cancel' }, clock.now())) return sub;
        const row = await ctx.applyState(tx, sub, await gateway.setCancelAtPeriodEnd(tx, sub, true, randomUUID()));
        await audit.record(tx, {
          type: 'subscription_cancelled',
          userId: user.id,
          actor,
          subscription: sub,
          endsOn: sub.currentPeriodEnd,
          by: 'customer',
        });
        await ctx.sendMail(tx, {
          to: user.email,
          template: 'subscription-cancelled',
          data: { summary: describe(sub), accessUntil: sub.currentPeriodEnd.toISOString(), url: ctx.billingUrl },
        });
        return row;
      });
    },

    /** Undo a cancellation before the period ends; no charge until the period ends. */
    async reactivate(user: BillingUser, subscriptionId: string, actor: string = user.email): Promise<Subscription> {
      return mutate(user, subscriptionId, async (tx, sub, gateway) => {
        if (!mayChange(sub, { kind: 'reactivate' }, clock.now())) return sub;
        const row = await ctx.applyState(tx, sub, await gateway.setCancelAtPeriodEnd(tx, sub, false, randomUUID()));
        await audit.record(tx, {
          type: 'subscription_reactivated',
          userId: user.id,
          actor,
          subscription: sub,
          renewsOn: sub.currentPeriodEnd,
        });
        return row;
      });
    },

    /**
     * Ends the subscription now (the vendor's console): the provider stops it, the license expires
     * now, nothing is refunded. An ended subscription is a 409.
     */
    async cancelNow(user: BillingUser, subscriptionId: string, actor: string): Promise<Subscription> {
      return mutate(user, subscriptionId, async (tx, sub, gateway) => {
        if (sub.status === 'canceled') throw new AppError('CONFLICT', 'This subscription has already ended');
        const now = clock.now();
        await gateway.cancelNow(tx, sub, randomUUID());
        const row = await ctx.applyState(tx, sub, endedNow(sub, now));
        if (hasAccess(sub)) await licenses.expireForSubscription(tx, sub.id, now, actor);
        await audit.record(tx, { type: 'subscription_ended', userId: user.id, actor, subscription: sub });
        return row;
      });
    },

    /** The exact amount a quantity or interval change would charge now (same arithmetic as the change). */
    async preview(userId: string, subscriptionId: string, change: PlannedChange): Promise<ChangePreview> {
      const sub = await repo.findSubscription(db, userId, subscriptionId);
      if (!sub) throw notFound('The subscription');
      const gateway = ctx.gatewayFor(sub.provider);
      if (ctx.renewerOf(sub) && hasAccess(sub) && sub.currentPeriodEnd <= clock.now()) {
        throw new AppError('CONFLICT', 'This subscription is renewing right now. Try again in a moment.');
      }
      const now = clock.now();
      if (change.quantity !== undefined) mayChange(sub, { kind: 'quantity', quantity: change.quantity }, now);
      else if (change.interval !== undefined) mayChange(sub, { kind: 'interval', interval: change.interval }, now);
      else assertChangeable(sub, now);
      const customer = await repo.findCustomer(db, userId);
      return gateway.preview(db, sub, change, customer?.providerCustomerId ?? '');
    },
  };
}
