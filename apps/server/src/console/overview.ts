import { sql } from 'drizzle-orm';
import type { Overview } from '@portal/contract';
import type { Db } from '../db/client';
import { rowsOf as rows } from '../db/rows';
import type { Clock } from '../lib/clock';
import { paymentTroubleSql } from '../modules/billing/transition';
import { licenseStatusWhere } from '../modules/licenses/licenses.service';

const DAY = 86_400_000;

/** The counters the overview reads (console_counters, kept by migration 0011's triggers). */
export type ConsoleCounters = Record<
  | 'subscriptions_active'
  | 'subscriptions_past_due'
  | 'subscriptions_with_customer'
  | 'cards_expiring'
  | 'customers'
  | 'licenses'
  | 'invoices',
  number
>;

/** Every counter (0 when it has no row). */
export async function readCounters(db: Db): Promise<ConsoleCounters> {
  const found = await rows<{ name: string; value: string | number }>(db, sql`select name, value from console_counters`);
  const out: Record<string, number> = {
    subscriptions_active: 0,
    subscriptions_past_due: 0,
    subscriptions_with_customer: 0,
    cards_expiring: 0,
    customers: 0,
    licenses: 0,
    invoices: 0,
  };
  for (const r of found) out[r.name] = Number(r.value);
  return out as ConsoleCounters;
}

/**
 * The console's overview, read from the rollups (docs/decisions/080-console-rollups-by-triggers.md):
 * a few counters and one row per day, never the subscriptions or invoices themselves. MRR has one
 * definition for the headline and the chart: the subscriptions that give access (active or past
 * due, those set to cancel at the period end included until they end), unit amount × quantity, a
 * yearly one divided by 12, summed exactly and rounded to the cent once. A month's point is the MRR
 * of the subscriptions alive at its end (the current month's: now, which is the headline), at their
 * current price. "The last 30 days" are today (UTC) and the 29 days before.
 */
export function createOverview(deps: { db: Db; clock: Clock; currency: string }) {
  const { db, clock } = deps;

  async function getOverview(): Promise<Overview> {
    const now = clock.now();
    const nowIso = now.toISOString();
    const today = nowIso.slice(0, 10);
    const firstDay = new Date(now.getTime() - 29 * DAY).toISOString().slice(0, 10);
    const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);

    const [counters, [recent], [lic], [risk], months, days] = await Promise.all([
      readCounters(db),
      rows<Record<string, string | number>>(
        db,
        sql`select coalesce(sum(new_subscriptions), 0)::int as new, coalesce(sum(churned_subscriptions), 0)::int as churned,
                   coalesce(sum(failed_payments), 0)::int as failed
              from console_days where day between ${firstDay}::date and ${today}::date`,
      ),
      // Licenses are not rolled up: "active" depends on the time (expires_at), and a rollup kept by
      // every node activation would put a shared row on the activation path. An index-only scan
      // of the unexpired range of a partial index of active licenses that includes active_nodes
      // (migration 0025) instead of the table.
      rows<Record<string, number>>(
        db,
        sql`select count(*)::int as licenses, coalesce(sum(active_nodes), 0)::int as nodes
            from licenses where ${licenseStatusWhere('active', now, { status: sql`status`, expiresAt: sql`expires_at` })}`,
      ),
      // MRR at risk: the past due subscriptions' part of the MRR, from what each subscription adds to
      // it (console_subscription_facts, the view's one definition). No index on status: the facts
      // are read only while the counter says some payment is failing (a one-time filter, else no scan).
      rows<Record<string, string | number>>(
        db,
        sql`select count(*)::int as n, coalesce(sum(mrr12), 0)::bigint as mrr12
              from console_subscription_facts
             where ${paymentTroubleSql(sql`status`)}
               and exists (select 1 from console_counters where name = 'subscriptions_past_due' and value > 0)`,
      ),
      rows<Record<string, string | number>>(
        db,
        sql`with m as (
              select generate_series(${firstMonth}::date, ${firstMonth}::date + interval '11 months', interval '1 month')::date as start
            ), d as (
              select * from console_days where day <= ${today}::date
            )
            select to_char(m.start, 'YYYY-MM') as month,
              (select coalesce(sum(mrr12_started - mrr12_ended), 0) from d where d.day < (m.start + interval '1 month')::date) as mrr12,
              (select coalesce(sum(revenue), 0) from d where d.day >= m.start and d.day < (m.start + interval '1 month')::date) as revenue,
              (select coalesce(sum(new_subscriptions), 0) from d where d.day >= m.start and d.day < (m.start + interval '1 month')::date) as new,
              (select coalesce(sum(churned_subscriptions), 0) from d where d.day >= m.start and d.day < (m.start + interval '1 month')::date) as churned
            from m order by m.start`,
      ),
      // Counted in memory by validation and added per day with the last-seen writes (validation_days).
      rows<Record<string, string | number>>(
        db,
        sql`select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(v.validations, 0)::bigint as validations,
                   coalesce(v.valid, 0)::bigint as valid
            from (select generate_series(${firstDay}::date, ${today}::date, interval '1 day')::date as day) d
            left join validation_days v on v.day = d.day
            order by d.day`,
      ),
    ]);

    // MRR × 12 in cents is a whole number: the headline is the current month's point.
    const mrr12 = Number(months.at(-1)?.mrr12 ?? 0);
    return {
      currency: deps.currency,
      mrr: Math.round(mrr12 / 12),
      arr: mrr12,
      activeSubscriptions: counters.subscriptions_active,
      pastDueSubscriptions: counters.subscriptions_past_due,
      activeNodes: Number(lic?.nodes ?? 0),
      activeLicenses: Number(lic?.licenses ?? 0),
      customers: counters.customers,
      newSubscriptions: Number(recent?.new ?? 0),
      churnedSubscriptions: Number(recent?.churned ?? 0),
      failedPayments: Number(recent?.failed ?? 0),
      mrrAtRisk: Math.round(Number(risk?.mrr12 ?? 0) / 12),
      subscriptionsAtRisk: Number(risk?.n ?? 0),
      cardsExpiringBeforeRenewal: counters.cards_expiring,
      months: months.map((m) => ({
        month: String(m.month),
        mrr: Math.round(Number(m.mrr12) / 12),
        revenue: Number(m.revenue),
        newSubscriptions: Number(m.new),
        churnedSubscriptions: Number(m.churned),
      })),
      days: days.map((d) => ({ day: String(d.day), validations: Number(d.validations), valid: Number(d.valid) })),
    };
  }

  return { getOverview };
}
