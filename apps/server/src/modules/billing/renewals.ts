import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import type { BillTo, Receipt } from '../../providers/billing/gateway';
import type { BillingContext } from './billing-context';
import { SYSTEM } from './billing-context';
import { noticesOf } from './billing-notices';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository';
import { describe, endedNow } from './lifecycle';
import { accessUntil, graceEnd } from './transition';

const DAY_MS = 86_400_000;

type Renewer = NonNullable<ReturnType<BillingContext['renewerOf']>>;

/** What a retry asked for now (the vendor's staff) did: paid (the subscription is active again) or declined. */
export type RetriedNow =
  { outcome: 'paid'; subscription: SubscriptionRow; paid: Receipt[] } | { outcome: 'declined'; subscription: SubscriptionRow };
/** The caller's writes that belong to a retry now (the staff audit row), in its transaction, whatever its outcome. */
export type RetryWithin = (tx: Tx, retried: RetriedNow) => Promise<void>;

/** How often the worker looks for subscriptions whose period has ended. */
export const RENEWAL_INTERVAL_MS = 30_000;

/**
 * Renewals of the periods we bill ourselves (the local engine; Stripe renews its own and tells us
 * through webhooks), the notices sent before something goes wrong, and the worker that runs both.
 */
export function createRenewals(ctx: BillingContext) {
  const { db, clock, log, outbox, billingUrl } = ctx;
  const { payments } = ctx.config;
  const notices = noticesOf(ctx);

  /** One renewal step of a subscription whose period has ended (row locked by the caller). */
  async function renewOne(tx: Tx, sub: SubscriptionRow): Promise<SubscriptionRow> {
    const renewer = ctx.renewerOf(sub);
    const billTo = await ctx.billToFor(tx, sub.userId);
    if (!billTo || !renewer) {
      // The owner is gone: nothing more is charged.
      return ctx.transition(tx, sub, endedNow(sub, clock.now()), {
        actor: SYSTEM,
        cause: billTo ? { kind: 'ended_now' } : { kind: 'renewal', endedBecause: 'account_deleted' },
      });
    }
    if (sub.status === 'past_due') return retryOrEnd(tx, sub, billTo, renewer);
    const r = await renewer.renew(tx, sub, billTo);
    const failed = r.outcome === 'payment_failed';
    const state = failed ? { ...r.state, nextPaymentAttemptAt: nextAttempt(r.state.currentPeriodStart ?? clock.now()) } : r.state;
    const row = await ctx.transition(tx, sub, state, {
      actor: SYSTEM,
      cause: r.outcome === 'ended' ? { kind: 'renewal', endedBecause: r.endedBecause } : { kind: 'renewal', invoice: r.invoice },
    });
    if (r.outcome === 'renewed') {
      if (r.invoice) await ctx.sendReceipt(tx, billTo, r.invoice, row);
    } else if (r.outcome === 'payment_failed') {
      // Once per period: a retried renewal of the same period finds the notice recorded.
      if (r.invoice && (await notices.recordOnce(tx, sub.id, 'payment-failed', row.currentPeriodEnd))) {
        await ctx.sendMail(tx, {
          to: billTo.email,
          template: 'payment-failed',
          data: {
            number: r.invoice.number,
            amountDue: r.invoice.amountDue,
            currency: r.invoice.currency,
            url: billingUrl,
            // The real end of access: the grace, during which the payment is retried.
            accessUntil: accessUntil(row, ctx.config.payments.graceDays).toISOString(),
          },
        });
      }
    } else {
      await ctx.sendMail(tx, {
        to: billTo.email,
        template: 'subscription-ended',
        data: { summary: describe(sub), endedOn: sub.currentPeriodEnd.toISOString(), url: billingUrl },
      });
    }
    return row;
  }

  /**
   * The schedule's next retry of a payment that failed at `failedAt` (PAYMENT_RETRY_DAYS after it),
   * or null when none is left before the grace ends.
   */
  function nextAttempt(failedAt: Date): Date | null {
    const now = clock.now().getTime();
    const ends = graceEnd({ currentPeriodStart: failedAt }, payments.graceDays).getTime();
    for (const days of payments.retryDays) {
      const at = failedAt.getTime() + days * DAY_MS;
      if (at > now && at < ends) return new Date(at);
    }
    return null;
  }

  /**
   * A failed renewal (past_due) that is due again: ended for non-payment once the grace has run out
   * (the license expires, the customer is told), else the open invoice is charged again (a retry
   * of the schedule). A retry that pays restores the paid period and sends the receipt.
   */
  async function retryOrEnd(tx: Tx, sub: SubscriptionRow, billTo: BillTo, renewer: Renewer): Promise<SubscriptionRow> {
    const now = clock.now();
    if (graceEnd(sub, payments.graceDays) <= now) {
      const row = await ctx.transition(
        tx,
        sub,
        { ...endedNow(sub, now), nextPaymentAttemptAt: null },
        { actor: SYSTEM, cause: { kind: 'renewal', endedBecause: 'unpaid' } },
      );
      await ctx.sendMail(tx, {
        to: billTo.email,
        template: 'subscription-ended',
        data: { summary: describe(sub), endedOn: now.toISOString(), url: billingUrl },
      });
      return row;
    }
    const paid = await chargeAgain(tx, sub, billTo, renewer, SYSTEM);
    if (paid) return paid.row;
    return ctx.transition(
      tx,
      sub,
      { nextPaymentAttemptAt: nextAttempt(sub.currentPeriodStart) },
      {
        actor: SYSTEM,
        cause: { kind: 'renewal' },
      },
    );
  }

  /**
   * The open invoices of a past_due subscription charged again to its own card (a retry of the
   * schedule, or one asked for now): paid, the subscription is active again (the transition puts
   * the license back to the paid period and says so in the activity) and a receipt goes out per
   * invoice; declined, nothing is written (undefined).
   */
  async function chargeAgain(
    tx: Tx,
    sub: SubscriptionRow,
    billTo: BillTo,
    renewer: Renewer,
    actor: string,
  ): Promise<{ row: SubscriptionRow; paid: Receipt[] } | undefined> {
    const payment = await renewer.retry(tx, sub);
    if (payment.paid.length === 0) return undefined;
    const row = await ctx.transition(tx, sub, payment.state, {
      actor,
      cause: { kind: 'paid', invoice: payment.paid[0] },
    });
    for (const inv of payment.paid) await ctx.sendReceipt(tx, billTo, inv, row);
    return { row, paid: payment.paid };
  }

  /**
   * "Retry payment now" (the vendor's staff): the open invoices of past_due subscription
   * `providerId` charged once, now, by the worker's own retry (chargeAgain). The row is claimed as
   * the worker claims it (SKIP LOCKED): while the worker or another retry holds it this answers 409,
   * and once they commit it is no longer past due (409), so two never charge it twice. A declined
   * retry changes nothing: the schedule's next retry stands (docs/decisions/085-console-dunning-and-retry-payment-now.md).
   * `within` runs in the transaction, paid or declined.
   */
  async function retryNow(providerId: string, actor: string, within?: RetryWithin): Promise<RetriedNow> {
    const retried = await db.transaction(async (tx): Promise<RetriedNow> => {
      const sub = await repo.claimSubscription(tx, providerId);
      if (!sub) {
        if (!(await repo.findSubscriptionByProviderId(tx, providerId))) throw notFound('The subscription');
        throw new AppError('CONFLICT', 'A payment of this subscription is being taken right now. Look at it again in a moment.');
      }
      if (sub.status !== 'past_due') {
        const is = sub.status === 'canceled' ? 'has ended' : sub.status === 'active' ? 'is paid up' : 'awaits its first payment';
        throw new AppError('CONFLICT', `This subscription's payment is not failing (it ${is}): there is nothing to retry`);
      }
      const renewer = ctx.renewerOf(sub);
      if (!renewer) {
        throw new AppError(
          'CONFLICT',
          "Stripe retries this subscription's payment on its own schedule; retry it from Stripe's dashboard, or ask the customer to add a card",
        );
      }
      const ends = graceEnd(sub, payments.graceDays);
      if (ends <= clock.now()) {
        throw new AppError(
          'CONFLICT',
          `The grace of this failed payment ended on ${ends.toISOString().slice(0, 10)}: the subscription is ending for non-payment`,
        );
      }
      const billTo = await ctx.billToFor(tx, sub.userId);
      if (!billTo) throw notFound('The subscription');
      const paid = await chargeAgain(tx, sub, billTo, renewer, actor);
      const result: RetriedNow = paid
        ? { outcome: 'paid', subscription: paid.row, paid: paid.paid }
        : { outcome: 'declined', subscription: sub };
      await within?.(tx, result);
      return result;
    });
    if (retried.outcome === 'paid') void outbox.kick();
    return retried;
  }

  /** A period that has ended, or a grace that has run out (a retry that is due waits for the worker). */
  const overdue = (row: SubscriptionRow, now: Date) =>
    (row.status === 'active' && row.currentPeriodEnd <= now) ||
    (row.status === 'past_due' && graceEnd(row, payments.graceDays) <= now);

  /** A subscription whose period ended before the worker got to it is brought up to date first. */
  async function catchUp(tx: Tx, sub: SubscriptionRow): Promise<SubscriptionRow> {
    let row = sub;
    for (let i = 0; i < 120 && ctx.renewerOf(row) && overdue(row, clock.now()); i++) {
      row = await renewOne(tx, row);
    }
    return row;
  }

  /**
   * Renews (or ends) every subscription whose period has ended, one row per transaction, claimed
   * with FOR UPDATE SKIP LOCKED so any number of instances can run it at once.
   */
  async function runRenewals(): Promise<number> {
    let handled = 0;
    const failed: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      let claimed: string | undefined;
      try {
        const done = await db.transaction(async (tx) => {
          const sub = await repo.claimDueSubscription(tx, clock.now(), payments.graceDays, failed);
          if (!sub) return false;
          claimed = sub.id;
          await renewOne(tx, sub);
          return true;
        });
        if (!done) break;
        handled++;
      } catch (err) {
        if (!claimed) throw err;
        // One broken row must not stop the others; it is retried on the next run.
        failed.push(claimed);
        log.error({ err, subscription: claimed }, 'renewal failed');
      }
    }
    if (handled > 0) void outbox.kick();
    return handled;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  return {
    catchUp,
    runRenewals,
    retryNow,
    /** Queues the notices that are due (renewal coming up, card expiring); the worker runs it too. */
    runNotices: notices.run,

    startWorkers(intervalMs = RENEWAL_INTERVAL_MS) {
      stopped = false;
      timer = setInterval(() => {
        if (running || stopped) return;
        running = runRenewals()
          .then(async (n) => n + (await notices.run()))
          .catch((err) => {
            log.error({ err }, 'renewal run failed');
            return 0;
          })
          .finally(() => {
            running = undefined;
          });
      }, intervalMs);
      timer.unref();
    },

    async stopWorkers() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
