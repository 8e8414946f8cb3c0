import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  lte,
  sql,
  type AnyColumn,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import {
  type ConsoleCustomerRow,
  type ConsoleInvoiceRow,
  type ConsoleLicenseRow,
  type ConsoleSubscriptionRow,
  type Page,
} from '@portal/contract';
import type { z } from 'zod';
import type {
  ListCustomersQuerySchema,
  ListInvoicesQuerySchema,
  ListLicensesQuerySchema,
  ListSubscriptionsQuerySchema,
} from '@portal/contract';
import type { Db } from '../db/client';
import { invoices, licenses, subscriptions, users } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import { billingReads } from '../modules/billing/billing.repository';
import { invoiceStateOf, refundedToCardSql } from '../modules/billing/invoice-rules';
import { paymentTrouble } from '../modules/billing/transition';
import { licenseStatusWhere, statusOf } from '../modules/licenses/licenses.service';
import { readCounters, type ConsoleCounters } from './overview';
import { containing } from './search.repository';

const OUTER_USER_ID = sql`${sql.identifier('users')}.${sql.identifier('id')}`;

/** A CSV export is read in batches of this many rows, each after the last one's sort key (no OFFSET). */
export const CSV_BATCH_ROWS = 1000;

type Query<S extends z.ZodType> = z.output<S>;
type Order = 'asc' | 'desc' | undefined;
/** Where an export's next batch starts: the last row's sort value (as text) and id. */
export type Cursor = { key: string; id: string };
/** One page (`offset`, with its total), or one batch of an export (`after` a cursor, no total). */
export type Window = { limit: number; offset: number; after?: Cursor | undefined; count: boolean };
const windowOf = (q: { page: number; size: number }): Window => ({
  limit: q.size,
  offset: (q.page - 1) * q.size,
  count: true,
});
/** An export's batch after `after`. */
export const batchAfter = (after: Cursor | undefined): Window => ({ limit: CSV_BATCH_ROWS, offset: 0, after, count: false });
const by = (order: Order, column: SQL | Parameters<typeof asc>[0]) => (order === 'asc' ? asc(column) : desc(column));
/** Rows after the cursor in the list's order: (sort, id) past the last row's, both in one direction. */
const pastCursor = (order: Order, sort: SQL | AnyColumn, id: AnyColumn, type: string, after: Cursor | undefined) =>
  after
    ? order === 'asc'
      ? sql`(${sort}, ${id}) > (cast(${after.key} as ${sql.raw(type)}), ${after.id}::uuid)`
      : sql`(${sort}, ${id}) < (cast(${after.key} as ${sql.raw(type)}), ${after.id}::uuid)`
    : undefined;
const page = <T>(items: T[], total: number, q: { page: number; size: number }, last?: Cursor): Page<T> & { last?: Cursor } => ({
  items,
  total,
  page: q.page,
  size: q.size,
  ...(last ? { last } : {}),
});
/** The total of a list without filters, from the rollups (migration 0011) instead of a count. */
const counted = async (db: Db, counter: keyof ConsoleCounters) => (await readCounters(db))[counter];
/**
 * A page (not an export's batch): the ids of its rows first, from the table alone in index order;
 * the joins and the per-row counts then run for the page's rows only, not for every row skipped by
 * OFFSET, and the planner cannot pick a plan that joins whole tables for 20 rows.
 */
function pageIds(
  w: Window,
  id: AnyColumn,
  ids: (keyed: SQL | undefined) => { limit: (n: number) => { offset: (n: number) => SQLWrapper } },
): SQL | undefined {
  if (!w.count) return undefined;
  return inArray(id, ids(undefined).limit(w.limit).offset(w.offset) as never);
}
const cursorOf = <R extends { sortKey: string }>(row: R | undefined, id: (r: R) => string): Cursor | undefined =>
  row ? { key: row.sortKey, id: id(row) } : undefined;
/** A failing payment's next retry and end of grace, as a list row has them (both null when not failing). */
const dunningColumns = (t: ReturnType<typeof paymentTrouble>) => ({
  nextAttemptAt: t?.nextAttemptAt?.toISOString() ?? null,
  accessUntil: t?.accessUntil.toISOString() ?? null,
});
const nameOf = (u: { fname: string | null; lname: string | null }) => `${u.fname ?? ''} ${u.lname ?? ''}`.trim();

/**
 * The console's lists: filters, sorting and pages over the tables; the same rows as CSV.
 * `graceDays` (PAYMENT_GRACE_DAYS) dates the end of a failing payment's grace.
 */
export function createLists(deps: { db: Db; clock: Clock; graceDays: number }) {
  const { db, clock } = deps;

  async function listCustomers(
    q: Query<typeof ListCustomersQuerySchema>,
    w: Window = windowOf(q),
  ): Promise<Page<ConsoleCustomerRow> & { last?: Cursor }> {
    const p = q.q ? containing(q.q) : undefined;
    const where = p
      ? sql`(${users.email} ilike ${p} or (${users.fname} || ' ' || ${users.lname}) ilike ${p} or ${users.company} ilike ${p})`
      : undefined;
    const sortBy = q.sort ?? 'createdAt';
    const sort = { createdAt: users.createdAt, email: users.email, name: sql`(${users.fname} || ' ' || ${users.lname})` }[sortBy];
    const type = sortBy === 'createdAt' ? 'timestamptz' : 'text';
    const [rows, total] = await Promise.all([
      db
        .select({
          user: users,
          sortKey: sql<string>`${sort}::text`,
          // Drizzle writes a column of the only table unqualified ("id"), which inside a subquery
          // names the subquery's own column: the outer row is named in full.
          activeSubscriptions: billingReads.subscriptionsWithAccessOf(OUTER_USER_ID),
          licenses: sql<number>`(select count(*) from ${licenses} l where l.user_id = ${OUTER_USER_ID})::int`,
        })
        .from(users)
        .where(
          pageIds(w, users.id, (keyed) =>
            db.select({ id: users.id }).from(users).where(and(where, keyed)).orderBy(by(q.order, sort), by(q.order, users.id)),
          ) ?? and(where, pastCursor(q.order, sort, users.id, type, w.after)),
        )
        .orderBy(by(q.order, sort), by(q.order, users.id))
        .limit(w.limit)
        .offset(w.count ? 0 : w.offset),
      !w.count
        ? 0
        : where
          ? db
              .select({ n: count() })
              .from(users)
              .where(where)
              .then(([r]) => r?.n ?? 0)
          : counted(db, 'customers'),
    ]);
    return page(
      rows.map((r) => ({
        id: r.user.id,
        email: r.user.email,
        name: nameOf(r.user),
        company: r.user.company,
        createdAt: r.user.createdAt.toISOString(),
        activeSubscriptions: Number(r.activeSubscriptions),
        licenses: Number(r.licenses),
      })),
      total,
      q,
      cursorOf(rows.at(-1), (r) => r.user.id),
    );
  }

  async function listSubscriptions(
    q: Query<typeof ListSubscriptionsQuerySchema>,
    w: Window = windowOf(q),
  ): Promise<Page<ConsoleSubscriptionRow> & { last?: Cursor }> {
    const p = q.q ? containing(q.q) : undefined;
    const where = and(
      q.status ? eq(subscriptions.status, q.status) : undefined,
      q.interval ? eq(subscriptions.interval, q.interval) : undefined,
      q.cancelAtPeriodEnd ? eq(subscriptions.cancelAtPeriodEnd, q.cancelAtPeriodEnd === 'true') : undefined,
      p ? sql`(${subscriptions.providerId} ilike ${p} or ${users.email} ilike ${p})` : undefined,
    );
    const amount = sql`(${subscriptions.unitAmount} * ${subscriptions.quantity})`;
    const sortBy = q.sort ?? 'createdAt';
    const sort = { createdAt: subscriptions.createdAt, currentPeriodEnd: subscriptions.currentPeriodEnd, amount }[sortBy];
    const type = sortBy === 'amount' ? 'bigint' : 'timestamptz';
    const [rows, total] = await Promise.all([
      db
        .select({ s: subscriptions, email: users.email, sortKey: sql<string>`${sort}::text` })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(
          pageIds(w, subscriptions.id, (keyed) =>
            (p
              ? db
                  .select({ id: subscriptions.id })
                  .from(subscriptions)
                  .innerJoin(users, eq(users.id, subscriptions.userId))
                  .where(and(where, keyed))
              : db
                  .select({ id: subscriptions.id })
                  .from(subscriptions)
                  .where(and(where, keyed, isNotNull(subscriptions.userId)))
            ).orderBy(by(q.order, sort), by(q.order, subscriptions.id)),
          ) ?? and(where, pastCursor(q.order, sort, subscriptions.id, type, w.after)),
        )
        .orderBy(by(q.order, sort), by(q.order, subscriptions.id))
        .limit(w.limit)
        .offset(w.count ? 0 : w.offset),
      !w.count
        ? 0
        : where
          ? db
              .select({ n: count() })
              .from(subscriptions)
              .innerJoin(users, eq(users.id, subscriptions.userId))
              .where(where)
              .then(([r]) => r?.n ?? 0)
          : counted(db, 'subscriptions_with_customer'),
    ]);
    return page(
      rows.map(({ s, email }) => ({
        ...dunningColumns(paymentTrouble(s, deps.graceDays)),
        subscriptionId: s.providerId,
        userId: s.userId!,
        email,
        status: s.status,
        interval: s.interval,
        quantity: s.quantity,
        amount: s.unitAmount * s.quantity,
        currency: s.currency,
        currentPeriodEnd: s.currentPeriodEnd.toISOString(),
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        createdAt: s.createdAt.toISOString(),
      })),
      total,
      q,
      cursorOf(rows.at(-1), (r) => r.s.id),
    );
  }

  async function listLicenses(
    q: Query<typeof ListLicensesQuerySchema>,
    w: Window = windowOf(q),
  ): Promise<Page<ConsoleLicenseRow> & { last?: Cursor }> {
    const now = clock.now();
    const p = q.q ? containing(q.q) : undefined;
    const usable = licenseStatusWhere('active', now);
    const where = and(
      q.status ? licenseStatusWhere(q.status, now) : undefined,
      q.expiringWithinDays !== undefined
        ? and(usable, lte(licenses.expiresAt, new Date(now.getTime() + q.expiringWithinDays * 86_400_000)))
        : undefined,
      q.complimentary
        ? q.complimentary === 'true'
          ? isNull(licenses.subscriptionId)
          : sql`${licenses.subscriptionId} is not null`
        : undefined,
      p ? sql`(${licenses.key} ilike ${p} or ${users.email} ilike ${p})` : undefined,
    );
    const sortBy = q.sort ?? 'createdAt';
    const sort = { createdAt: licenses.createdAt, expiresAt: licenses.expiresAt, activeNodes: licenses.activeNodes }[sortBy];
    const type = sortBy === 'activeNodes' ? 'integer' : 'timestamptz';
    const [rows, total] = await Promise.all([
      db
        .select({
          l: licenses,
          email: users.email,
          subscriptionId: subscriptions.providerId,
          sortKey: sql<string>`${sort}::text`,
        })
        .from(licenses)
        .leftJoin(users, eq(users.id, licenses.userId))
        .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
        .where(
          pageIds(w, licenses.id, (keyed) =>
            (p
              ? db
                  .select({ id: licenses.id })
                  .from(licenses)
                  .leftJoin(users, eq(users.id, licenses.userId))
                  .where(and(where, keyed))
              : db.select({ id: licenses.id }).from(licenses).where(and(where, keyed))
            ).orderBy(by(q.order, sort), by(q.order, licenses.id)),
          ) ?? and(where, pastCursor(q.order, sort, licenses.id, type, w.after)),
        )
        .orderBy(by(q.order, sort), by(q.order, licenses.id))
        .limit(w.limit)
        .offset(w.count ? 0 : w.offset),
      !w.count
        ? 0
        : where
          ? db
              .select({ n: count() })
              .from(licenses)
              .leftJoin(users, eq(users.id, licenses.userId))
              .where(where)
              .then(([r]) => r?.n ?? 0)
          : counted(db, 'licenses'),
    ]);
    return page(
      rows.map(({ l, email, subscriptionId }) => ({
        licenseKey: l.key,
        userId: l.userId,
        email,
        status: statusOf(l, now),
        maxNodes: l.maxNodes,
        activeNodes: l.activeNodes,
        expiresAt: l.expiresAt.toISOString(),
        createdAt: l.createdAt.toISOString(),
        subscriptionId,
      })),
      total,
      q,
      cursorOf(rows.at(-1), (r) => r.l.id),
    );
  }

  async function listInvoices(
    q: Query<typeof ListInvoicesQuerySchema>,
    w: Window = windowOf(q),
  ): Promise<Page<ConsoleInvoiceRow> & { last?: Cursor }> {
    const p = q.q ? containing(q.q) : undefined;
    const where = and(
      q.status ? eq(invoices.status, q.status) : undefined,
      p ? sql`(${invoices.number} ilike ${p} or ${users.email} ilike ${p})` : undefined,
    );
    const sortBy = q.sort ?? 'created';
    const sort = { created: invoices.createdAt, amount: invoices.amountDue }[sortBy];
    const type = sortBy === 'amount' ? 'integer' : 'timestamptz';
    const [rows, total] = await Promise.all([
      db
        .select({
          i: invoices,
          sortKey: sql<string>`${sort}::text`,
          email: users.email,
          subscriptionId: subscriptions.providerId,
          // What was paid back to the card (credits to the balance leave the payment as it was).
          refunded: refundedToCardSql(invoices.id),
        })
        .from(invoices)
        .leftJoin(users, eq(users.id, invoices.userId))
        .leftJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
        .where(
          pageIds(w, invoices.id, (keyed) =>
            (p
              ? db
                  .select({ id: invoices.id })
                  .from(invoices)
                  .leftJoin(users, eq(users.id, invoices.userId))
                  .where(and(where, keyed))
              : db.select({ id: invoices.id }).from(invoices).where(and(where, keyed))
            ).orderBy(by(q.order, sort), by(q.order, invoices.id)),
          ) ?? and(where, pastCursor(q.order, sort, invoices.id, type, w.after)),
        )
        .orderBy(by(q.order, sort), by(q.order, invoices.id))
        .limit(w.limit)
        .offset(w.count ? 0 : w.offset),
      !w.count
        ? 0
        : where
          ? db
              .select({ n: count() })
              .from(invoices)
              .leftJoin(users, eq(users.id, invoices.userId))
              .where(where)
              .then(([r]) => r?.n ?? 0)
          : counted(db, 'invoices'),
    ]);
    return page(
      rows.map(({ i, email, subscriptionId, refunded }) => ({
        id: i.id,
        number: i.number,
        userId: i.userId,
        email,
        subscriptionId,
        status: invoiceStateOf(i, Number(refunded)),
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        currency: i.currency,
        created: i.createdAt.toISOString(),
      })),
      total,
      q,
      cursorOf(rows.at(-1), (r) => r.i.id),
    );
  }

  return { listCustomers, listSubscriptions, listLicenses, listInvoices };
}
export type Lists = ReturnType<typeof createLists>;
