import { and, asc, count, desc, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm';
import {
  refundedStatus,
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
import { invoiceRefunds, invoices, licenses, subscriptions, users } from '../db/schema/index';
import type { Clock } from '../lib/clock';
import { statusOf } from '../modules/licenses/licenses.service';
import { containing } from './search.repository';

const OUTER_USER_ID = sql`${sql.identifier('users')}.${sql.identifier('id')}`;

/** A CSV export holds at most this many rows (the list's filters narrow it). */
export const CSV_MAX_ROWS = 50_000;

type Query<S extends z.ZodType> = z.output<S>;
/** The rows of one page, or (`all`) of the export. */
type Window = { limit: number; offset: number };
const windowOf = (q: { page: number; size: number; format?: string | undefined }): Window =>
  q.format === 'csv' ? { limit: CSV_MAX_ROWS, offset: 0 } : { limit: q.size, offset: (q.page - 1) * q.size };
const by = (order: 'asc' | 'desc' | undefined, column: SQL | Parameters<typeof asc>[0]) =>
  order === 'asc' ? asc(column) : desc(column);
const page = <T>(items: T[], total: number, q: { page: number; size: number }): Page<T> => ({
  items,
  total,
  page: q.page,
  size: q.size,
});
const nameOf = (u: { fname: string | null; lname: string | null }) => `${u.fname ?? ''} ${u.lname ?? ''}`.trim();

/** The console's lists: filters, sorting and pages over the tables; the same rows as CSV. */
export function createLists(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function listCustomers(q: Query<typeof ListCustomersQuerySchema>): Promise<Page<ConsoleCustomerRow>> {
    const p = q.q ? containing(q.q) : undefined;
    const where = p
      ? sql`${users.email} ilike ${p} or (${users.fname} || ' ' || ${users.lname}) ilike ${p} or ${users.company} ilike ${p}`
      : undefined;
    const sort = { createdAt: users.createdAt, email: users.email, name: sql`(${users.fname} || ' ' || ${users.lname})` }[
      q.sort ?? 'createdAt'
    ];
    const w = windowOf(q);
    const [rows, [total]] = await Promise.all([
      db
        .select({
          user: users,
          // Drizzle writes a column of the only table unqualified ("id"), which inside a subquery
          // names the subquery's own column: the outer row is named in full.
          activeSubscriptions: sql<number>`(select count(*) from ${subscriptions} s where s.user_id = ${OUTER_USER_ID} and s.status in ('active', 'past_due'))::int`,
          licenses: sql<number>`(select count(*) from ${licenses} l where l.user_id = ${OUTER_USER_ID})::int`,
        })
        .from(users)
        .where(where)
        .orderBy(by(q.order, sort), asc(users.id))
        .limit(w.limit)
        .offset(w.offset),
      db.select({ n: count() }).from(users).where(where),
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
      total?.n ?? 0,
      q,
    );
  }

  async function listSubscriptions(q: Query<typeof ListSubscriptionsQuerySchema>): Promise<Page<ConsoleSubscriptionRow>> {
    const p = q.q ? containing(q.q) : undefined;
    const where = and(
      q.status ? eq(subscriptions.status, q.status) : undefined,
      q.interval ? eq(subscriptions.interval, q.interval) : undefined,
      q.cancelAtPeriodEnd ? eq(subscriptions.cancelAtPeriodEnd, q.cancelAtPeriodEnd === 'true') : undefined,
      p ? sql`(${subscriptions.providerId} ilike ${p} or ${users.email} ilike ${p})` : undefined,
    );
    const amount = sql`(${subscriptions.unitAmount} * ${subscriptions.quantity})`;
    const sort = { createdAt: subscriptions.createdAt, currentPeriodEnd: subscriptions.currentPeriodEnd, amount }[
      q.sort ?? 'createdAt'
    ];
    const w = windowOf(q);
    const [rows, [total]] = await Promise.all([
      db
        .select({ s: subscriptions, email: users.email })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(where)
        .orderBy(by(q.order, sort), asc(subscriptions.id))
        .limit(w.limit)
        .offset(w.offset),
      db.select({ n: count() }).from(subscriptions).innerJoin(users, eq(users.id, subscriptions.userId)).where(where),
    ]);
    return page(
      rows.map(({ s, email }) => ({
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
      total?.n ?? 0,
      q,
    );
  }

  async function listLicenses(q: Query<typeof ListLicensesQuerySchema>): Promise<Page<ConsoleLicenseRow>> {
    const now = clock.now();
    const p = q.q ? containing(q.q) : undefined;
    const usable = and(eq(licenses.status, 'active'), gt(licenses.expiresAt, now));
    const status = {
      active: usable,
      expired: and(eq(licenses.status, 'active'), lte(licenses.expiresAt, now)),
      suspended: eq(licenses.status, 'suspended'),
    };
    const where = and(
      q.status ? status[q.status] : undefined,
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
    const sort = { createdAt: licenses.createdAt, expiresAt: licenses.expiresAt, activeNodes: licenses.activeNodes }[
      q.sort ?? 'createdAt'
    ];
    const w = windowOf(q);
    const [rows, [total]] = await Promise.all([
      db
        .select({ l: licenses, email: users.email, subscriptionId: subscriptions.providerId })
        .from(licenses)
        .leftJoin(users, eq(users.id, licenses.userId))
        .leftJoin(subscriptions, eq(subscriptions.id, licenses.subscriptionId))
        .where(where)
        .orderBy(by(q.order, sort), asc(licenses.id))
        .limit(w.limit)
        .offset(w.offset),
      db.select({ n: count() }).from(licenses).leftJoin(users, eq(users.id, licenses.userId)).where(where),
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
      total?.n ?? 0,
      q,
    );
  }

  async function listInvoices(q: Query<typeof ListInvoicesQuerySchema>): Promise<Page<ConsoleInvoiceRow>> {
    const p = q.q ? containing(q.q) : undefined;
    const where = and(
      q.status ? eq(invoices.status, q.status) : undefined,
      p ? sql`(${invoices.number} ilike ${p} or ${users.email} ilike ${p})` : undefined,
    );
    const sort = { created: invoices.createdAt, amount: invoices.amountDue }[q.sort ?? 'created'];
    const w = windowOf(q);
    const [rows, [total]] = await Promise.all([
      db
        .select({
          i: invoices,
          email: users.email,
          subscriptionId: subscriptions.providerId,
          // What was paid back to the card (credits to the balance leave the payment as it was).
          refunded: sql<number>`(select coalesce(sum(${invoiceRefunds.amount}), 0)::int from ${invoiceRefunds} where ${invoiceRefunds.invoiceId} = ${invoices.id} and ${invoiceRefunds.kind} = 'refund')`,
        })
        .from(invoices)
        .leftJoin(users, eq(users.id, invoices.userId))
        .leftJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
        .where(where)
        .orderBy(by(q.order, sort), asc(invoices.id))
        .limit(w.limit)
        .offset(w.offset),
      db.select({ n: count() }).from(invoices).leftJoin(users, eq(users.id, invoices.userId)).where(where),
    ]);
    return page(
      rows.map(({ i, email, subscriptionId, refunded }) => ({
        id: i.id,
        number: i.number,
        userId: i.userId,
        email,
        subscriptionId,
        status: refundedStatus(i.status, i.amountPaid, refunded),
        amountDue: i.amountDue,
        amountPaid: i.amountPaid,
        currency: i.currency,
        created: i.createdAt.toISOString(),
      })),
      total?.n ?? 0,
      q,
    );
  }

  return { listCustomers, listSubscriptions, listLicenses, listInvoices };
}
export type Lists = ReturnType<typeof createLists>;
