import { sql } from 'drizzle-orm';
import type { Overview } from '@portal/contract';
import type { Db } from '../db/client';
import { rowsOf as rows } from '../db/rows';
import type { Clock } from '../lib/clock';

const DAY = 86_400_000;

/**
 * Monthly recurring revenue of the subscriptions that give access (active or past due): unit
 * amount × quantity, a yearly one divided by 12, summed exactly and rounded to the cent once.
 */
const MRR_EXACT = sql`coalesce(sum(case when interval = 'year' then unit_amount * quantity / 12.0 else unit_amount * quantity end), 0)`;

/**
 * The console's overview: revenue and counts from the subscriptions, licenses and invoices tables,
 * the last 12 months, and validations in each of the last 30 days. Revenue per month is the local
 * engine's paid invoices less its refunds made that month (Stripe keeps its own); a past month's
 * MRR counts the subscriptions alive at its end at their current price.
 */
export function createOverview(deps: { db: Db; clock: Clock; currency: string }) {
  const { db, clock } = deps;

  async function getOverview(): Promise<Overview> {
    const now = clock.now();
    const since = new Date(now.getTime() - 30 * DAY).toISOString();
    const nowIso = now.toISOString();
    const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
    const today = nowIso.slice(0, 10);
    const firstDay = new Date(now.getTime() - 29 * DAY).toISOString().slice(0, 10);

    const [[subs], [moves], [lic], [people], [failed], [expiring], months, days] = await Promise.all([
      rows<Record<string, string | number>>(
        db,
        sql`select round(${MRR_EXACT})::bigint as mrr, round(${MRR_EXACT} * 12)::bigint as arr,
              count(*) filter (where status = 'active')::int as active, count(*) filter (where status = 'past_due')::int as past_due
            from subscriptions where status in ('active', 'past_due')`,
      ),
      rows<Record<string, number>>(
        db,
        sql`select count(*) filter (where created_at > ${since} and status <> 'incomplete')::int as new,
                   count(*) filter (where canceled_at > ${since} and status = 'canceled')::int as churned
            from subscriptions`,
      ),
      rows<Record<string, number>>(
        db,
        sql`select count(*)::int as licenses, coalesce(sum(active_nodes), 0)::int as nodes
            from licenses where status = 'active' and expires_at > ${nowIso}`,
      ),
      rows<Record<string, number>>(db, sql`select count(*)::int as n from users`),
      rows<Record<string, number>>(
        db,
        sql`select count(*)::int as n from audit_events where action = 'subscription_payment_failed' and created_at > ${since}`,
      ),
      rows<Record<string, number>>(
        db,
        sql`select count(*)::int as n from subscriptions s join payment_methods pm on pm.id = s.payment_method_id
            where s.status = 'active' and not s.cancel_at_period_end
              and make_timestamptz(pm.exp_year, pm.exp_month, 1, 0, 0, 0, 'UTC') + interval '1 month' <= s.current_period_end`,
      ),
      rows<Record<string, string | number>>(
        db,
        sql`with m as (
              select generate_series(${firstMonth.toISOString()}::timestamptz, ${firstMonth.toISOString()}::timestamptz + interval '11 months', interval '1 month') as start
            )
            select to_char(m.start at time zone 'UTC', 'YYYY-MM') as month,
              (select round(${MRR_EXACT})::bigint from subscriptions s
                 where s.status <> 'incomplete' and s.created_at <= least(m.start + interval '1 month', ${nowIso}::timestamptz)
                   and (s.canceled_at is null or s.canceled_at > least(m.start + interval '1 month', ${nowIso}::timestamptz))) as mrr,
              (select coalesce(sum(amount_paid), 0)::bigint from invoices i
                 where i.status = 'paid' and i.created_at >= m.start and i.created_at < m.start + interval '1 month')
              - (select coalesce(sum(amount), 0)::bigint from invoice_refunds r
                 where r.kind = 'refund' and r.created_at >= m.start and r.created_at < m.start + interval '1 month') as revenue,
              (select count(*)::int from subscriptions s
                 where s.status <> 'incomplete' and s.created_at >= m.start and s.created_at < m.start + interval '1 month') as new,
              (select count(*)::int from subscriptions s
                 where s.status = 'canceled' and s.canceled_at >= m.start and s.canceled_at < m.start + interval '1 month') as churned
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

    return {
      currency: deps.currency,
      mrr: Number(subs?.mrr ?? 0),
      arr: Number(subs?.arr ?? 0),
      activeSubscriptions: Number(subs?.active ?? 0),
      pastDueSubscriptions: Number(subs?.past_due ?? 0),
      activeNodes: Number(lic?.nodes ?? 0),
      activeLicenses: Number(lic?.licenses ?? 0),
      customers: Number(people?.n ?? 0),
      newSubscriptions: Number(moves?.new ?? 0),
      churnedSubscriptions: Number(moves?.churned ?? 0),
      failedPayments: Number(failed?.n ?? 0),
      cardsExpiringBeforeRenewal: Number(expiring?.n ?? 0),
      months: months.map((m) => ({
        month: String(m.month),
        mrr: Number(m.mrr ?? 0),
        revenue: Number(m.revenue),
        newSubscriptions: Number(m.new),
        churnedSubscriptions: Number(m.churned),
      })),
      days: days.map((d) => ({ day: String(d.day), validations: Number(d.validations), valid: Number(d.valid) })),
    };
  }

  return { getOverview };
}
