import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type {
  ChangePreview,
  Interval,
  Invoice,
  PaymentMethod,
  Price,
  SetupIntentResponse,
  Subscription,
  SubscriptionStatus,
} from '@portal/contract';
import { cardBrandLabel, TEXT } from '@portal/contract';
import type { Tx } from '../../db/client';
import { sha256 } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import type { CardInput } from '../../providers/billing/cards';
import { createLocalEngine, invoiceUrl } from '../../providers/billing/local-engine';
import type { BillTo, BillingProvider, PlannedChange } from '../../providers/billing/provider';
import { createStripeAdapter } from '../../providers/billing/stripe-adapter';
import { toInvoice } from '../../providers/billing/stripe-mapping';
import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';
import type { OutboxService } from '../outbox/outbox.service';
import type { EmailJob } from '../email/email-job';
import { formatDate } from './billing-documents';
import { createBillingNotices } from './billing-notices';
import { billingRepository as repo, type InvoiceRow, type SubscriptionRow } from './billing.repository';

/** 'Added Visa card ending in 4242' (the brand as people write it; 'Added a card ending in …' when unknown). */
function addedCardSummary(card: { brand: string; last4: string }): string {
  const label = cardBrandLabel(card.brand);
  return `Added ${label === 'Card' ? 'a' : label} card ending in ${card.last4}`;
}

/**
 * What billing needs from the licenses domain. Every writing call joins our transaction, so a
 * refused license change (or a declined charge) leaves both sides unchanged.
 */
export interface LicensePort {
  issue(
    tx: Tx,
    input: { userId: string; subscriptionId: string; maxNodes: number; expiresAt: Date; actor: string },
  ): Promise<{ id: string; key: string }>;
  resizeForSubscription(tx: Tx, subscriptionId: string, maxNodes: number, actor: string): Promise<unknown>;
  extendForSubscription(tx: Tx, subscriptionId: string, expiresAt: Date, actor: string): Promise<unknown>;
  expireForSubscription(tx: Tx, subscriptionId: string, at: Date, actor: string): Promise<unknown>;
  revokeAllForUser(tx: Tx, userId: string, actor: string): Promise<unknown>;
  keysBySubscription(subscriptionIds: string[]): Promise<Map<string, string>>;
}

/** The signed-in user as billing sees them. */
export type BillingUser = { id: string; email: string; fname: string; lname: string };

/** A double-submitted checkout (same user, interval and quantity) within this window is the same purchase. */
export const CHECKOUT_DEDUP_MS = 10_000;
/** How often startWorkers() looks for subscriptions whose period has ended. */
export const RENEWAL_INTERVAL_MS = 30_000;

const SYSTEM = 'system';
const STRIPE = 'stripe';
const hasAccess = (s: { status: string }) => s.status === 'active' || s.status === 'past_due';
const ly = (i: string) => `${i}ly`;
const billToOf = (u: BillingUser): BillTo => ({ userId: u.id, email: u.email, name: `${u.fname} ${u.lname}`.trim() });

export function toSubscription(row: SubscriptionRow, licenseKey: string | null): Subscription {
  return {
    stripeId: row.providerId,
    status: row.status as SubscriptionStatus,
    quantity: row.quantity,
    interval: row.interval as Interval,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    plan: row.plan,
    unitAmount: row.unitAmount,
    currency: row.currency,
    licenseKey,
  };
}

export function createBillingService(deps: ServiceDeps & { audit: AuditService; outbox: OutboxService; licenses: LicensePort }) {
  const { config, db, clock, log, audit, outbox, licenses } = deps;
  const local = createLocalEngine({ config, clock });
  const stripe = config.stripe ? createStripeAdapter({ config, clock, log, outbox }) : undefined;
  const provider: BillingProvider = stripe ?? local;
  const providerFor = (kind: string): BillingProvider => (kind === 'stripe' && stripe ? stripe : local);
  const billingUrl = `${config.publicUrl}/app/billing`;
  const notices = createBillingNotices({ db, clock, log, outbox, billingUrl });

  // ---------- helpers ----------

  async function withKey(row: SubscriptionRow): Promise<Subscription> {
    const keys = await licenses.keysBySubscription([row.id]);
    return toSubscription(row, keys.get(row.id) ?? null);
  }

  function subject(row: SubscriptionRow) {
    return { subjectType: 'subscription', subjectId: row.providerId };
  }

  const describe = (row: { quantity: number; plan: string; interval: string }) =>
    `${row.quantity} × ${row.plan} (${ly(row.interval)})`;

  /** Queues a templated e-mail in the caller's transaction (rendered in the brand's layout when sent). */
  async function sendMail(tx: Tx, m: EmailJob) {
    await outbox.enqueue(tx, 'email', m);
  }

  async function sendReceipt(tx: Tx, billTo: BillTo, inv: InvoiceRow, row: SubscriptionRow) {
    if (inv.status !== 'paid' || inv.amountPaid <= 0) return;
    await sendMail(tx, {
      to: billTo.email,
      template: 'receipt',
      data: {
        number: inv.number,
        amountPaid: inv.amountPaid,
        currency: inv.currency,
        paidAt: inv.createdAt.toISOString(),
        summary: describe(row),
        lines: inv.lines.map((l) => ({
          description: l.description,
          quantity: l.quantity,
          amount: l.amount,
          periodStart: new Date(l.periodStart).toISOString(),
          periodEnd: new Date(l.periodEnd).toISOString(),
        })),
        url: `${config.publicUrl}${invoiceUrl(inv.id)}`,
      },
    });
  }

  /**
   * The license follows the subscription: issued when it first gains access (checkout, or Stripe's
   * first payment), resized and extended while it has access, expired when it ends. Deciding on the
   * row's transition (seen under the row lock) issues exactly one license even when our checkout
   * and Stripe's webhook race.
   */
  async function reconcileLicense(tx: Tx, before: SubscriptionRow | undefined, row: SubscriptionRow, actor: string) {
    if (!row.userId) return;
    if (hasAccess(row) && (!before || !hasAccess(before))) {
      await licenses.issue(tx, {
        userId: row.userId,
        subscriptionId: row.id,
        maxNodes: row.quantity,
        expiresAt: row.currentPeriodEnd,
        actor,
      });
      return;
    }
    if (before && hasAccess(before) && hasAccess(row)) {
      if (row.quantity !== before.quantity) {
        try {
          await licenses.resizeForSubscription(tx, row.id, row.quantity, actor);
        } catch (err) {
          // Changed at Stripe below the nodes in use: the license keeps its size until nodes are released.
          if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
          log.warn({ subscription: row.providerId, message: err.message }, 'license not resized');
        }
      }
      if (row.status === 'active' && row.currentPeriodEnd.getTime() !== before.currentPeriodEnd.getTime()) {
        await alignLicense(tx, row.id, row.currentPeriodEnd, actor);
      }
    }
    if (row.status === 'canceled' && before?.status !== 'canceled' && before && hasAccess(before)) {
      const now = clock.now();
      await licenses.expireForSubscription(tx, row.id, row.currentPeriodEnd < now ? row.currentPeriodEnd : now, actor);
    }
  }

  /**
   * The license ends with the paid period. A switch from yearly to monthly moves that end earlier
   * (the unused time became account credit), which `extend` alone never does.
   */
  async function alignLicense(tx: Tx, subscriptionId: string, periodEnd: Date, actor: string) {
    await licenses.extendForSubscription(tx, subscriptionId, periodEnd, actor);
    await licenses.expireForSubscription(tx, subscriptionId, periodEnd, actor);
  }

  function assertNotEnded(sub: SubscriptionRow) {
    const now = clock.now();
    if (sub.status === 'canceled' || (sub.cancelAtPeriodEnd && sub.currentPeriodEnd <= now)) {
      throw new AppError('CONFLICT', 'This subscription has ended. Start a new subscription to continue.');
    }
  }

  /** Quantity and interval changes need a paid, running subscription. */
  function assertChangeable(sub: SubscriptionRow) {
    assertNotEnded(sub);
    if (sub.cancelAtPeriodEnd) {
      throw new AppError('CONFLICT', 'This subscription is cancelled. Re-activate it before changing it.');
    }
    if (sub.status === 'incomplete') {
      throw new AppError('CONFLICT', 'This subscription is waiting for its first payment. Complete the payment first.');
    }
    if (sub.status === 'past_due') {
      throw new AppError(
        'CONFLICT',
        'The last payment for this subscription failed. Add a working card to pay the open invoice first.',
      );
    }
  }

  async function billToFor(tx: Tx, userId: string | null): Promise<BillTo | undefined> {
    if (!userId) return undefined;
    const u = await repo.findBillTo(tx, userId);
    return u ? billToOf(u) : undefined;
  }

  /** One renewal step of a local subscription whose period has ended (row locked by the caller). */
  async function renewOne(tx: Tx, sub: SubscriptionRow): Promise<SubscriptionRow> {
    const billTo = await billToFor(tx, sub.userId);
    if (!billTo) return local.cancelNow(tx, sub);
    const r = await local.renew(tx, sub, billTo);
    const base = { userId: billTo.userId, actor: SYSTEM, ...subject(sub) };
    if (r.outcome === 'renewed') {
      await licenses.extendForSubscription(tx, sub.id, r.row.currentPeriodEnd, SYSTEM);
      await audit.record(tx, {
        ...base,
        action: 'subscription_renewed',
        summary: `Renewed ${describe(sub)} until ${formatDate(r.row.currentPeriodEnd)}`,
        data: { invoice: r.invoice?.number, amountPaid: r.invoice?.amountPaid, periodEnd: r.row.currentPeriodEnd.toISOString() },
      });
      if (r.invoice) await sendReceipt(tx, billTo, r.invoice, r.row);
    } else if (r.outcome === 'payment_failed') {
      await audit.record(tx, {
        ...base,
        action: 'subscription_payment_failed',
        summary: `The renewal payment of ${describe(sub)} failed (invoice ${r.invoice?.number})`,
        data: { invoice: r.invoice?.number },
      });
      // Once per period: a retried renewal of the same period finds the notice recorded.
      if (r.invoice && (await notices.recordOnce(tx, sub.id, 'payment-failed', r.row.currentPeriodEnd))) {
        await sendMail(tx, {
          to: billTo.email,
          template: 'payment-failed',
          data: {
            number: r.invoice.number,
            amountDue: r.invoice.amountDue,
            currency: r.invoice.currency,
            url: billingUrl,
            accessUntil: sub.currentPeriodEnd.toISOString(),
          },
        });
      }
    } else {
      await licenses.expireForSubscription(tx, sub.id, sub.currentPeriodEnd, SYSTEM);
      await audit.record(tx, {
        ...base,
        action: 'subscription_ended',
        summary:
          r.endedBecause === 'unpaid'
            ? `Ended ${describe(sub)}: the renewal invoice was not paid`
            : `Ended ${describe(sub)} at the end of the paid period`,
      });
      await sendMail(tx, {
        to: billTo.email,
        template: 'subscription-ended',
        data: { summary: describe(sub), endedOn: sub.currentPeriodEnd.toISOString(), url: billingUrl },
      });
    }
    return r.row;
  }

  /** A local subscription whose period ended before the worker got to it is brought up to date first. */
  async function catchUp(tx: Tx, sub: SubscriptionRow): Promise<SubscriptionRow> {
    let row = sub;
    for (let i = 0; i < 120 && row.provider === 'local' && hasAccess(row) && row.currentPeriodEnd <= clock.now(); i++) {
      row = await renewOne(tx, row);
    }
    return row;
  }

  /** Locks the owner's subscription, brings it up to date and applies `fn`, all in one transaction. */
  async function mutate(
    user: BillingUser,
    stripeId: string,
    fn: (tx: Tx, sub: SubscriptionRow, p: BillingProvider) => Promise<SubscriptionRow>,
  ): Promise<Subscription> {
    const row = await db.transaction(async (tx) => {
      const locked = await repo.findSubscription(tx, user.id, stripeId, true);
      if (!locked) throw notFound('The subscription');
      const sub = await catchUp(tx, locked);
      return fn(tx, sub, providerFor(sub.provider));
    });
    void outbox.kick();
    return withKey(row);
  }

  async function customerIdOf(tx: Tx, userId: string): Promise<string | undefined> {
    const c = await repo.findCustomer(tx, userId);
    return c && c.provider === provider.kind ? c.providerCustomerId : undefined;
  }

  // ---------- Stripe webhooks ----------

  type SyncJob = { object: 'subscription' | 'invoice' | 'setup_intent'; id: string };

  function syncJobFor(event: Stripe.Event): SyncJob | null {
    const obj = event.data.object as { id?: string; object?: string };
    if (!obj.id) return null;
    if (event.type.startsWith('customer.subscription.')) return { object: 'subscription', id: obj.id };
    if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed' || event.type === 'invoice.finalized') {
      return { object: 'invoice', id: obj.id };
    }
    if (event.type === 'setup_intent.succeeded') return { object: 'setup_intent', id: obj.id };
    return null;
  }

  /** Maps Stripe's current state (re-read, never the event's snapshot) onto our row and the license. */
  async function applyStripeSubscription(s: Stripe.Subscription, onTx?: (tx: Tx, row: SubscriptionRow) => Promise<void>) {
    const adapter = stripe!;
    await db.transaction(async (tx) => {
      const { before, row } = await adapter.mirror(tx, s);
      if (!row) return;
      await reconcileLicense(tx, before, row, STRIPE);
      if (row.userId) {
        const base = { userId: row.userId, actor: STRIPE, ...subject(row) };
        if (!before) {
          await audit.record(tx, { ...base, action: 'subscription_created', summary: `Subscribed to ${describe(row)}` });
        } else {
          if (before.quantity !== row.quantity) {
            await audit.record(tx, {
              ...base,
              action: 'subscription_quantity_changed',
              summary: `Changed the quantity from ${before.quantity} to ${row.quantity}`,
            });
          }
          if (before.interval !== row.interval) {
            await audit.record(tx, {
              ...base,
              action: 'subscription_interval_changed',
              summary: `Changed billing from ${ly(before.interval)} to ${ly(row.interval)}`,
            });
          } else if (row.currentPeriodEnd > before.currentPeriodEnd && row.status === 'active') {
            await audit.record(tx, {
              ...base,
              action: 'subscription_renewed',
              summary: `Renewed ${describe(row)} until ${formatDate(row.currentPeriodEnd)}`,
            });
          }
          if (!before.cancelAtPeriodEnd && row.cancelAtPeriodEnd) {
            await audit.record(tx, {
              ...base,
              action: 'subscription_cancelled',
              summary: `Cancelled ${describe(row)}; it ends on ${formatDate(row.currentPeriodEnd)}`,
            });
          }
          if (before.cancelAtPeriodEnd && !row.cancelAtPeriodEnd && row.status !== 'canceled') {
            await audit.record(tx, { ...base, action: 'subscription_reactivated', summary: `Re-activated ${describe(row)}` });
          }
          if (before.status !== 'canceled' && row.status === 'canceled') {
            await audit.record(tx, { ...base, action: 'subscription_ended', summary: `Ended ${describe(row)}` });
          }
        }
      }
      if (onTx) await onTx(tx, row);
    });
  }

  if (stripe) {
    outbox.on('billing.stripe.sync', async (p) => {
      const job = p;
      if (job.object === 'subscription') {
        await applyStripeSubscription(await stripe.retrieveSubscription(job.id));
      } else if (job.object === 'invoice') {
        const inv = await stripe.retrieveInvoice(job.id);
        const subId = inv.parent?.subscription_details?.subscription;
        const id = typeof subId === 'string' ? subId : subId?.id;
        if (!id) return;
        await applyStripeSubscription(await stripe.retrieveSubscription(id), async (tx, row) => {
          if (job.eventType !== 'invoice.paid' || inv.status !== 'paid' || inv.amount_paid <= 0) return;
          const billTo = await billToFor(tx, row.userId);
          if (!billTo) return;
          const view = toInvoice(inv);
          const iso = (unix: number) => new Date(unix * 1000).toISOString();
          await sendMail(tx, {
            to: billTo.email,
            template: 'receipt',
            data: {
              number: view.number,
              amountPaid: view.amountPaid,
              currency: view.currency,
              paidAt: view.created,
              summary: describe(row),
              lines: (inv.lines?.data ?? []).map((l) => ({
                description: l.description ?? describe(row),
                quantity: l.quantity ?? 1,
                amount: l.amount,
                periodStart: iso(l.period.start),
                periodEnd: iso(l.period.end),
              })),
              url: view.url ?? billingUrl,
            },
          });
        });
      } else if (job.object === 'setup_intent') {
        const si = await stripe.retrieveSetupIntent(job.id);
        const customerId = typeof si.customer === 'string' ? si.customer : si.customer?.id;
        const pm = typeof si.payment_method === 'string' ? si.payment_method : si.payment_method?.id;
        if (si.status !== 'succeeded' || !customerId || !pm) return;
        const owner = await repo.findCustomerByProviderId(db, customerId);
        if (!owner) return;
        const cards = await stripe.listCards(db, customerId);
        // The first card becomes the default, so renewals have something to charge.
        if (!cards.some((c) => c.isDefault)) await stripe.setDefaultCard(db, customerId, pm, `${job.eventId}`);
        // As on the local engine: a new card pays a past_due subscription's open invoice at once.
        for (const sub of await repo.listSubscriptions(db, owner.userId)) {
          if (sub.provider !== 'stripe' || sub.status !== 'past_due') continue;
          try {
            await stripe.retryWithCard(db, sub, pm, job.eventId);
          } catch (err) {
            // Declined again: Stripe reports it (invoice.payment_failed) and keeps retrying.
            log.warn({ err, subscription: sub.providerId }, 'the new card did not pay the open invoice');
          }
        }
        const card = cards.find((c) => c.id === pm);
        await db.transaction(async (tx) => {
          await audit.record(tx, {
            userId: owner.userId,
            actor: STRIPE,
            action: 'card_added',
            summary: card ? addedCardSummary(card) : 'Added a card',
            subjectType: 'payment_method',
            subjectId: pm,
          });
        });
      }
    });
  }

  /**
   * Renews (or ends) every local subscription whose period has ended, one row per transaction,
   * claimed with FOR UPDATE SKIP LOCKED so any number of instances can run it at once.
   */
  async function runRenewals(): Promise<number> {
    let handled = 0;
    const failed: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      let claimed: string | undefined;
      try {
        const done = await db.transaction(async (tx) => {
          const sub = await repo.claimDueSubscription(tx, clock.now(), failed);
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

  async function listSubscriptions(userId: string): Promise<Subscription[]> {
    const rows = await repo.listSubscriptions(db, userId);
    const keys = rows.length ? await licenses.keysBySubscription(rows.map((r) => r.id)) : new Map<string, string>();
    return rows.map((r) => toSubscription(r, keys.get(r.id) ?? null));
  }

  async function listPaymentMethods(userId: string): Promise<PaymentMethod[]> {
    const customerId = await customerIdOf(db, userId);
    return customerId ? provider.listCards(db, customerId) : [];
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  // ---------- the service ----------

  return {
    provider: provider.kind,

    prices(): Price {
      return { ...config.pricing };
    },

    listPaymentMethods,

    async createSetupIntent(user: BillingUser): Promise<SetupIntentResponse> {
      const clientSecret = await db.transaction(async (tx) => {
        const customer = await provider.lockCustomer(tx, billToOf(user));
        return provider.createSetupIntent(tx, customer.providerCustomerId, randomUUID());
      });
      return {
        provider: provider.kind,
        clientSecret,
        ...(provider.publishableKey ? { publishableKey: provider.publishableKey } : {}),
      };
    },

    /** The local engine's card form (POST /api/billing/local/confirm-setup). */
    async confirmLocalSetup(user: BillingUser, input: CardInput & { clientSecret: string }): Promise<PaymentMethod> {
      if (provider.kind !== 'local')
        throw new AppError('NOT_FOUND', 'No such endpoint: the local card form is off while Stripe is configured');
      const card = await db.transaction(async (tx) => {
        const customer = await repo.lockCustomer(tx, user.id);
        if (!customer || customer.provider !== 'local') {
          throw new AppError('NOT_FOUND', 'This card setup was not found. Start adding the card again.');
        }
        const customerId = customer.providerCustomerId;
        let added = await local.confirmSetup(tx, customerId, input);
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'card_added',
          summary: addedCardSummary(added),
          subjectType: 'payment_method',
          subjectId: added.id,
        });
        // A subscription whose renewal failed is paid with the new card at once.
        const billTo = billToOf(user);
        for (const sub of await repo.runningSubscriptions(tx, user.id, 'local')) {
          if (sub.status !== 'past_due') continue;
          await local.setDefaultCard(tx, customerId, added.id);
          const withCard = await local.setSubscriptionCard(tx, sub, added.id);
          const paid = await local.payOpenInvoices(tx, withCard, added.id, customerId);
          if (paid.length === 0) continue;
          const row = await repo.updateSubscription(tx, sub.id, { status: 'active', updatedAt: clock.now() });
          await licenses.extendForSubscription(tx, sub.id, row.currentPeriodEnd, user.email);
          await audit.record(tx, {
            userId: user.id,
            actor: user.email,
            action: 'subscription_renewed',
            summary: `Paid the open invoice of ${describe(row)}; renewed until ${formatDate(row.currentPeriodEnd)}`,
            ...subject(row),
          });
          for (const inv of paid) await sendReceipt(tx, billTo, inv, row);
        }
        added = (await repo.findCard(tx, customerId, added.id)) ?? added;
        return added;
      });
      void outbox.kick();
      return {
        id: card.id,
        brand: card.brand,
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        isDefault: card.isDefault,
      };
    },

    /**
     * Removes a card. A card paying for a running subscription is only removed when another card
     * can take over (it becomes the default and that subscription's card); see
     * docs/decisions (card removal).
     */
    async removePaymentMethod(user: BillingUser, cardId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const existing = await repo.lockCustomer(tx, user.id);
        if (!existing || existing.provider !== provider.kind) throw notFound('The card');
        const customerId = existing.providerCustomerId;
        const cards = await provider.listCards(tx, customerId);
        const target = cards.find((c) => c.id === cardId);
        if (!target) throw notFound('The card');
        const others = cards.filter((c) => c.id !== cardId);
        const paidBy = (await repo.runningSubscriptions(tx, user.id, provider.kind)).filter(
          (s) => s.paymentMethodId === cardId || (!s.paymentMethodId && target.isDefault),
        );
        const replacement = others.find((c) => c.isDefault) ?? others[0];
        if (paidBy.length > 0 && !replacement) {
          throw new AppError(
            'CONFLICT',
            'This card pays for an active subscription. Add another card first, or cancel the subscription.',
          );
        }
        const opId = randomUUID();
        if (replacement && (target.isDefault || paidBy.length > 0)) {
          await provider.setDefaultCard(tx, customerId, replacement.id, opId);
          for (const sub of paidBy) await provider.setSubscriptionCard(tx, sub, replacement.id, opId);
        }
        await provider.detachCard(tx, customerId, cardId, opId);
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'card_removed',
          summary: `Removed ${target.brand} card ending in ${target.last4}${
            replacement && paidBy.length > 0 ? `; subscriptions now use the card ending in ${replacement.last4}` : ''
          }`,
          subjectType: 'payment_method',
          subjectId: cardId,
        });
      });
    },

    /**
     * Buys a subscription and issues its license in one transaction. Idempotent: a client-supplied
     * Idempotency-Key names the purchase; without one, the same user buying the same interval and
     * quantity again within CHECKOUT_DEDUP_MS gets the first answer (a double-click or a retried
     * request), never a second subscription or charge. The customer row lock serialises both.
     */
    async checkout(
      user: BillingUser,
      body: { interval: Interval; quantity: number; paymentMethodId?: string | undefined },
      idempotencyKey?: string,
    ): Promise<{ subscription: Subscription; clientSecret?: string; created: boolean }> {
      const now = clock.now();
      const checkoutKey = idempotencyKey
        ? `client:${sha256(`${user.id}:${idempotencyKey}`)}`
        : `auto:${sha256([user.id, body.interval, body.quantity, body.paymentMethodId ?? '', Math.floor(now.getTime() / CHECKOUT_DEDUP_MS)].join('|'))}`;
      const result = await db.transaction(async (tx) => {
        const billTo = billToOf(user);
        const customer = await provider.lockCustomer(tx, billTo);
        const earlier =
          (await repo.findByCheckoutKey(tx, user.id, checkoutKey)) ??
          (idempotencyKey
            ? undefined
            : await repo.findRecentCheckout(
                tx,
                user.id,
                body.interval,
                body.quantity,
                new Date(now.getTime() - CHECKOUT_DEDUP_MS),
              ));
        if (earlier) {
          if (earlier.interval !== body.interval || earlier.quantity !== body.quantity) {
            throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different purchase.');
          }
          return { row: earlier, created: false };
        }
        const cards = await provider.listCards(tx, customer.providerCustomerId);
        if (body.paymentMethodId && !cards.some((c) => c.id === body.paymentMethodId)) throw notFound('The card');
        const cardId = body.paymentMethodId ?? (cards.find((c) => c.isDefault) ?? cards[0])?.id ?? null;
        const outcome = await provider.createSubscription(tx, {
          customer,
          billTo,
          interval: body.interval,
          quantity: body.quantity,
          cardId,
          checkoutKey,
          opId: checkoutKey,
        });
        const row = outcome.row;
        await reconcileLicense(tx, outcome.before, row, user.email);
        if (!outcome.before) {
          await audit.record(tx, {
            userId: user.id,
            actor: user.email,
            action: 'subscription_created',
            summary: `Subscribed to ${describe(row)}`,
            data: { invoice: outcome.invoice?.number, amountPaid: outcome.invoice?.amountPaid, status: row.status },
            ...subject(row),
          });
        }
        if (outcome.invoice) await sendReceipt(tx, billTo, outcome.invoice, row);
        return { row, created: true, clientSecret: outcome.clientSecret };
      });
      void outbox.kick();
      return {
        subscription: await withKey(result.row),
        created: result.created,
        ...('clientSecret' in result && result.clientSecret ? { clientSecret: result.clientSecret } : {}),
      };
    },

    listSubscriptions,

    async listInvoices(userId: string, stripeId: string): Promise<Invoice[]> {
      const sub = await repo.findSubscription(db, userId, stripeId);
      if (!sub) throw notFound('The subscription');
      return providerFor(sub.provider).listInvoices(db, sub);
    },

    /** The printable invoice (local engine), or the address of Stripe's hosted invoice page. */
    async invoiceDocument(userId: string, id: string): Promise<{ invoice: InvoiceRow } | { redirect: string }> {
      const inv = await repo.findInvoiceForUser(db, userId, id);
      if (inv) return { invoice: inv };
      if (stripe) {
        const customerId = await customerIdOf(db, userId);
        const hosted = customerId ? await stripe.invoiceForCustomer(customerId, id) : undefined;
        if (hosted?.url) return { redirect: hosted.url };
      }
      throw notFound('The invoice');
    },

    async changeQuantity(user: BillingUser, stripeId: string, quantity: number): Promise<Subscription> {
      return mutate(user, stripeId, async (tx, sub, p) => {
        assertChangeable(sub);
        if (quantity === sub.quantity) throw new AppError('BAD_REQUEST', TEXT.quantityMustDiffer);
        // The license refuses to shrink below its active nodes before anything is charged.
        await licenses.resizeForSubscription(tx, sub.id, quantity, user.email);
        const billTo = billToOf(user);
        const outcome = await p.changeQuantity(tx, sub, quantity, billTo, randomUUID());
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'subscription_quantity_changed',
          summary: `Changed the quantity from ${sub.quantity} to ${quantity}`,
          data: { from: sub.quantity, to: quantity, invoice: outcome.invoice?.number, amountDue: outcome.invoice?.amountDue },
          ...subject(sub),
        });
        if (outcome.invoice) await sendReceipt(tx, billTo, outcome.invoice, outcome.row);
        return outcome.row;
      });
    },

    async changeInterval(user: BillingUser, stripeId: string, interval: Interval): Promise<Subscription> {
      return mutate(user, stripeId, async (tx, sub, p) => {
        assertChangeable(sub);
        if (interval === sub.interval) throw new AppError('BAD_REQUEST', `This subscription is already billed ${ly(interval)}.`);
        const billTo = billToOf(user);
        const outcome = await p.changeInterval(tx, sub, interval, billTo, randomUUID());
        await alignLicense(tx, sub.id, outcome.row.currentPeriodEnd, user.email);
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'subscription_interval_changed',
          summary: `Changed billing from ${ly(sub.interval)} to ${ly(interval)}`,
          data: { from: sub.interval, to: interval, invoice: outcome.invoice?.number, amountDue: outcome.invoice?.amountDue },
          ...subject(sub),
        });
        if (outcome.invoice) await sendReceipt(tx, billTo, outcome.invoice, outcome.row);
        return outcome.row;
      });
    },

    /** Cancel at period end: the license stays valid until then. Cancelling twice changes nothing. */
    async cancel(user: BillingUser, stripeId: string): Promise<Subscription> {
      return mutate(user, stripeId, async (tx, sub, p) => {
        assertNotEnded(sub);
        if (sub.cancelAtPeriodEnd) return sub;
        if (sub.status === 'incomplete') {
          throw new AppError('CONFLICT', 'This subscription is waiting for its first payment. Complete the payment first.');
        }
        const row = await p.setCancelAtPeriodEnd(tx, sub, true, randomUUID());
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'subscription_cancelled',
          summary: `Cancelled ${describe(sub)}; access continues until ${formatDate(sub.currentPeriodEnd)}`,
          ...subject(sub),
        });
        await sendMail(tx, {
          to: user.email,
          template: 'subscription-cancelled',
          data: { summary: describe(sub), accessUntil: sub.currentPeriodEnd.toISOString(), url: billingUrl },
        });
        return row;
      });
    },

    /** Undo a cancellation before the period ends; no charge until the period ends. */
    async reactivate(user: BillingUser, stripeId: string): Promise<Subscription> {
      return mutate(user, stripeId, async (tx, sub, p) => {
        if (sub.status === 'canceled' || (sub.cancelAtPeriodEnd && sub.currentPeriodEnd <= clock.now())) {
          throw new AppError(
            'CONFLICT',
            'This subscription has already ended and can no longer be re-activated. Start a new subscription instead.',
          );
        }
        if (!sub.cancelAtPeriodEnd) return sub;
        const row = await p.setCancelAtPeriodEnd(tx, sub, false, randomUUID());
        await audit.record(tx, {
          userId: user.id,
          actor: user.email,
          action: 'subscription_reactivated',
          summary: `Re-activated ${describe(sub)}; it renews on ${formatDate(sub.currentPeriodEnd)}`,
          ...subject(sub),
        });
        return row;
      });
    },

    /** The exact amount a quantity or interval change would charge now (same arithmetic as the change). */
    async preview(userId: string, stripeId: string, change: PlannedChange): Promise<ChangePreview> {
      const sub = await repo.findSubscription(db, userId, stripeId);
      if (!sub) throw notFound('The subscription');
      if (sub.provider === 'local' && hasAccess(sub) && sub.currentPeriodEnd <= clock.now()) {
        throw new AppError('CONFLICT', 'This subscription is renewing right now. Try again in a moment.');
      }
      assertChangeable(sub);
      if (change.quantity !== undefined && change.quantity === sub.quantity)
        throw new AppError('BAD_REQUEST', TEXT.quantityMustDiffer);
      if (change.interval !== undefined && change.interval === sub.interval) {
        throw new AppError('BAD_REQUEST', `This subscription is already billed ${ly(change.interval)}.`);
      }
      const customer = await repo.findCustomer(db, userId);
      return providerFor(sub.provider).preview(db, sub, change, customer?.providerCustomerId ?? '');
    },

    /**
     * Account deletion: every subscription ends now without further charges and every card is
     * detached, inside the caller's transaction; Stripe is told after the commit through the outbox.
     */
    async cancelAllNowForUser(tx: Tx, userId: string): Promise<void> {
      const now = clock.now();
      const opId = randomUUID();
      for (const sub of await repo.listSubscriptions(tx, userId)) {
        if (sub.status === 'canceled') continue;
        await providerFor(sub.provider).cancelNow(tx, sub, opId);
        if (hasAccess(sub)) await licenses.expireForSubscription(tx, sub.id, now, SYSTEM);
        await audit.record(tx, {
          userId,
          actor: SYSTEM,
          action: 'subscription_ended',
          summary: `Ended ${describe(sub)} because the account was deleted`,
          ...subject(sub),
        });
      }
      const customer = await repo.findCustomer(tx, userId);
      if (customer) await providerFor(customer.provider).detachAllCards(tx, customer.providerCustomerId, opId);
    },

    /** Everything billing holds about the user, for the data export (cards without numbers). */
    async exportForUser(userId: string) {
      const subscriptions = await listSubscriptions(userId);
      let paymentMethods: PaymentMethod[] = [];
      try {
        paymentMethods = await listPaymentMethods(userId);
      } catch (err) {
        log.warn({ err }, 'payment methods left out of the export');
      }
      const rows = await repo.listInvoicesForUser(db, userId);
      const subRows = await repo.listSubscriptions(db, userId);
      const subIds = new Map(subRows.map((s) => [s.id, s.providerId]));
      const invoices: Record<string, unknown>[] = rows.map((i) => ({
        id: i.id,
        number: i.number,
        subscription: i.subscriptionId ? (subIds.get(i.subscriptionId) ?? null) : null,
        status: i.status,
        currency: i.currency,
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        periodStart: i.periodStart.toISOString(),
        periodEnd: i.periodEnd.toISOString(),
        created: i.createdAt.toISOString(),
        lines: i.lines,
      }));
      // Stripe keeps its own invoices: read them live.
      for (const sub of subRows.filter((r) => r.provider === 'stripe' && stripe)) {
        try {
          const items = await (stripe as BillingProvider).listInvoices(db, sub);
          invoices.push(...items.map((i) => ({ ...i, subscription: sub.providerId })));
        } catch (err) {
          log.warn({ err, subscription: sub.providerId }, 'Stripe invoices left out of the export');
        }
      }
      return { paymentMethods, subscriptions, invoices };
    },

    /** POST /api/billing/webhook: verified, recorded once per event id, processed through the outbox. */
    async handleWebhook(raw: Buffer, signature: string | undefined): Promise<{ duplicate: boolean }> {
      if (!stripe) throw new AppError('NOT_FOUND', 'No such endpoint: webhooks are only used with Stripe');
      const event = stripe.verifyEvent(raw, signature);
      const job = syncJobFor(event);
      const fresh = await db.transaction(async (tx) => {
        const isNew = await repo.recordWebhookEvent(tx, event.id, event.type, clock.now());
        if (isNew && job) await outbox.enqueue(tx, 'billing.stripe.sync', { ...job, eventId: event.id, eventType: event.type });
        return isNew;
      });
      if (fresh) void outbox.kick();
      return { duplicate: !fresh };
    },

    runRenewals,

    /** Queues the notices that are due (renewal coming up, card expiring); the renewal worker runs it too. */
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

export type BillingService = ReturnType<typeof createBillingService>;
