import { and, asc, eq, gt, isNotNull, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { billingNotices, paymentMethods, subscriptions, type billingNoticeKind } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import type { OutboxService } from '../outbox/outbox.service';
import { localRepository as cards } from '../../providers/billing/local/local.repository';
import type { BillingContext, OpenInvoice } from './billing-context';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository';
import { applyBalance } from '../../providers/billing/local/proration';
import { describe } from './lifecycle';
import { graceEnd } from './transition';

/** The yearly renewal notice goes out this many days before the renewal. */
export const RENEWAL_NOTICE_DAYS = 7;
/** A card that expires before the renewal is reported once the renewal is this close. */
export const CARD_NOTICE_DAYS = 30;

/** The reminder of a failing payment goes out this many days before its grace ends. */
export const GRACE_REMINDER_DAYS = 3;

export type NoticeKind = (typeof billingNoticeKind.enumValues)[number];
const DAY_MS = 86_400_000;

/**
 * The notices a billing product sends before something goes wrong, for subscriptions of the local
 * engine: Stripe e-mails its own customers about upcoming renewals and expiring cards where the
 * vendor turned those e-mails on, and the portal must not send a second copy. The reminder of a
 * failing payment goes to Stripe's customers too unless Stripe sends its own (STRIPE_SENDS_DUNNING).
 * Each notice is sent once per subscription and period: `billing_notices` records it in the
 * transaction that queues the e-mail. They read the local engine's cards and credit, which are
 * its own tables (the notices exist for that engine alone).
 */
export function createBillingNotices(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  outbox: Pick<OutboxService, 'enqueue' | 'kick'>;
  billingUrl: string;
  /** PAYMENT_GRACE_DAYS: a failing payment's reminder goes out GRACE_REMINDER_DAYS before its end. */
  graceDays: number;
  /** The portal reminds Stripe's customers of a failing payment too (not when STRIPE_SENDS_DUNNING). */
  remindsStripe: boolean;
  openInvoiceOf: (tx: Tx, sub: SubscriptionRow) => Promise<OpenInvoice | undefined>;
}) {
  const { db, clock, outbox, billingUrl, graceDays } = deps;

  /** True when this notice was not recorded yet (and now is); false when it was already sent. */
  async function recordOnce(tx: Tx, subscriptionId: string, kind: NoticeKind, periodEnd: Date): Promise<boolean> {
    const rows = await tx
      .insert(billingNotices)
      .values({ subscriptionId, kind, periodEnd, sentAt: clock.now() })
      .onConflictDoNothing()
      .returning({ kind: billingNotices.kind });
    return rows.length === 1;
  }

  const notSent = (kind: NoticeKind) =>
    sql`not exists (select 1 from ${billingNotices} where ${billingNotices.subscriptionId} = ${subscriptions.id}
      and ${billingNotices.kind} = ${kind} and ${billingNotices.periodEnd} = ${subscriptions.currentPeriodEnd})`;

  /** A running local subscription that renews within `days` and lacks this period's notice. */
  function due(kind: NoticeKind, days: number, now: Date, extra?: SQL): SQL {
    return and(
      eq(subscriptions.provider, 'local'),
      eq(subscriptions.status, 'active'),
      eq(subscriptions.cancelAtPeriodEnd, false),
      isNotNull(subscriptions.userId),
      gt(subscriptions.currentPeriodEnd, now),
      lte(subscriptions.currentPeriodEnd, new Date(now.getTime() + days * DAY_MS)),
      notSent(kind),
      extra,
    )!;
  }

  // The card pays for the subscription and its last valid day is before the renewal.
  const cardExpiresBeforeRenewal = sql`exists (select 1 from ${paymentMethods} where ${paymentMethods.id} = ${subscriptions.paymentMethodId}
    and ${paymentMethods.detachedAt} is null
    and make_timestamptz(${paymentMethods.expYear}, ${paymentMethods.expMonth}, 1, 0, 0, 0, 'UTC') + interval '1 month' <= ${subscriptions.currentPeriodEnd})`;

  /**
   * A failing local payment (past_due) whose grace ends within GRACE_REMINDER_DAYS and has not
   * ended yet: its grace began (the unpaid period's start) between `graceDays` and
   * `graceDays - GRACE_REMINDER_DAYS` days ago.
   */
  function graceEnding(now: Date): SQL {
    const startedBy = (days: number) => new Date(now.getTime() - days * DAY_MS);
    return and(
      deps.remindsStripe ? undefined : eq(subscriptions.provider, 'local'),
      eq(subscriptions.status, 'past_due'),
      isNotNull(subscriptions.userId),
      gt(subscriptions.currentPeriodStart, startedBy(graceDays)),
      lte(subscriptions.currentPeriodStart, startedBy(Math.max(graceDays - GRACE_REMINDER_DAYS, 0))),
      notSent('payment-reminder'),
    )!;
  }

  const RULES: Array<{
    kind: NoticeKind;
    where: (now: Date) => SQL;
    send: (tx: Tx, sub: SubscriptionRow, to: string) => Promise<void>;
  }> = [
    {
      kind: 'renewal-upcoming',
      where: (now) => due('renewal-upcoming', RENEWAL_NOTICE_DAYS, now, eq(subscriptions.interval, 'year')),
      send: async (tx, sub, to) => {
        // What the renewal will charge: a full period, less the account credit it will use.
        const { amountDue } = applyBalance(sub.quantity * sub.unitAmount, await cards.creditBalance(tx, sub.userId!));
        await outbox.enqueue(tx, 'email', {
          to,
          template: 'renewal-upcoming',
          data: {
            summary: describe(sub),
            renewsOn: sub.currentPeriodEnd.toISOString(),
            currency: sub.currency,
            amount: amountDue,
            url: billingUrl,
          },
        });
      },
    },
    {
      kind: 'card-expiring',
      where: (now) => due('card-expiring', CARD_NOTICE_DAYS, now, cardExpiresBeforeRenewal),
      send: async (tx, sub, to) => {
        const card = await cards.findCardById(tx, sub.paymentMethodId!);
        if (!card) return;
        await outbox.enqueue(tx, 'email', {
          to,
          template: 'card-expiring',
          data: {
            cardBrand: card.brand,
            last4: card.last4,
            expMonth: card.expMonth,
            expYear: card.expYear,
            renewsOn: sub.currentPeriodEnd.toISOString(),
            url: billingUrl,
          },
        });
      },
    },
    {
      kind: 'payment-reminder',
      where: graceEnding,
      send: async (tx, sub, to) => {
        const open = await deps.openInvoiceOf(tx, sub);
        if (!open) return;
        await outbox.enqueue(tx, 'email', {
          to,
          template: 'payment-reminder',
          data: {
            number: open.number,
            currency: open.currency,
            amountDue: open.amountDue,
            accessUntil: graceEnd(sub, graceDays).toISOString(),
            url: billingUrl,
          },
        });
      },
    },
  ];

  /**
   * Queues every notice that is due, one subscription per transaction, claimed with FOR UPDATE
   * SKIP LOCKED as the renewal worker claims its rows; answers how many were queued.
   */
  async function run(): Promise<number> {
    let sent = 0;
    for (const rule of RULES) {
      const failed: string[] = [];
      for (let i = 0; i < 10_000; i++) {
        let claimed: string | undefined;
        try {
          const queued = await db.transaction(async (tx) => {
            const [sub] = await tx
              .select()
              .from(subscriptions)
              .where(and(rule.where(clock.now()), failed.length ? notInArray(subscriptions.id, failed) : undefined))
              .orderBy(asc(subscriptions.currentPeriodEnd))
              .limit(1)
              .for('update', { skipLocked: true });
            if (!sub) return undefined;
            claimed = sub.id;
            const billTo = await repo.findBillTo(tx, sub.userId!);
            if (await recordOnce(tx, sub.id, rule.kind, sub.currentPeriodEnd)) {
              if (billTo) await rule.send(tx, sub, billTo.email);
            }
            return true;
          });
          if (!queued) break;
          sent++;
        } catch (err) {
          if (!claimed) throw err;
          // One broken row must not stop the others; it is tried again on the next run.
          failed.push(claimed);
          deps.log.error({ err, subscription: claimed, notice: rule.kind }, 'billing notice failed');
        }
      }
    }
    if (sent > 0) void outbox.kick();
    return sent;
  }

  return { run, recordOnce };
}
export type BillingNotices = ReturnType<typeof createBillingNotices>;

/** The notices of billing's context (the renewal worker and the provider's reports share them). */
export function noticesOf(ctx: BillingContext) {
  const { db, clock, log, outbox, billingUrl, config } = ctx;
  return createBillingNotices({
    db,
    clock,
    log,
    outbox,
    billingUrl,
    graceDays: config.payments.graceDays,
    remindsStripe: ctx.sendsDunningOf({ provider: 'stripe' }),
    openInvoiceOf: ctx.openInvoiceOf,
  });
}
