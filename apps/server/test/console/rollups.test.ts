// The console's rollups (migration 0011, ADR 080) always equal a full recount: random sequences of
// what changes them (sign-ups, purchases, quantity and interval changes, cancellations, renewals
// with failing cards, refunds and credits, card changes, account deletions, a statement written by
// hand) go through the real services, and after each sequence the rollup tables are compared with
// console_rollups_rebuild()'s recount, and the overview's headline with a count of the tables.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '@portal/contract';
import { rowsOf } from '../../src/db/rows';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { settle } from '../fuzz/db-state';

let t: ConsoleTestApp;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('owner@vendor.example', 'owner');
  owner = await t.signInStaff('owner@vendor.example');
});
afterAll(async () => t.close());

type Person = { email: string; cookie: string; id: string };
const people: Person[] = [];
const DAY = 86_400_000;

/** The rollup figures that were not zero after some run (the property must have moved them). */
const moved = new Set<string>();
/** Changes that went through, by kind of step (the property must have exercised them). */
const done = new Map<string, number>();
let current = '';

async function call(opts: InjectOptions, app: 'portal' | 'console' = 'portal') {
  const res = await (app === 'portal' ? t.app.inject(opts) : t.consoleApp.inject(opts));
  if (res.statusCode === 401) throw new Error(`signed out: ${opts.method} ${JSON.stringify(opts.url)}`);
  if (res.statusCode < 300 && opts.method !== 'GET') done.set(current, (done.get(current) ?? 0) + 1);
  return res;
}

/** A card through the local engine's form; `soon` expires this month, `poor` fails its charges. */
async function addCard(p: Person, kind: 'good' | 'soon' | 'poor') {
  const si = await call({ method: 'POST', url: '/api/billing/intents/setup', headers: { cookie: p.cookie } });
  const now = t.clock.now();
  await call({
    method: 'POST',
    url: '/api/billing/local/confirm-setup',
    headers: { cookie: p.cookie },
    payload: {
      clientSecret: si.json().clientSecret,
      number: kind === 'poor' ? '4000 0000 0000 9995' : '4242 4242 4242 4242',
      expMonth: kind === 'soon' ? now.getUTCMonth() + 1 : 12,
      expYear: now.getUTCFullYear() + (kind === 'soon' ? 0 : 3),
      cvc: '123',
    },
  });
}

type Sub = { stripeId: string; interval: 'month' | 'year' };
async function subsOf(p: Person): Promise<Sub[]> {
  const res = await call({ method: 'GET', url: '/api/billing/subscriptions', headers: { cookie: p.cookie } });
  return res.statusCode === 200 ? (res.json().items as Sub[]) : [];
}

const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

type Step = { kind: string; who: number; n: number; days: number };
const steps = fc.record({
  kind: fc.constantFrom(
    'signUp',
    'signUp',
    'checkout',
    'checkout',
    'checkout',
    'quantity',
    'interval',
    'cancel',
    'reactivate',
    'cancelNow',
    'renew',
    'refund',
    'credit',
    'card',
    'removeCard',
    'deleteAccount',
    'byHand',
  ),
  who: fc.nat(50),
  n: fc.nat(1000),
  days: fc.integer({ min: 1, max: 40 }),
});

/** One change through the real API or service; refusals (a 4xx for this state) are fine. */
async function run(s: Step) {
  const p = pick(people, s.who);
  if (s.kind === 'signUp' || !p) {
    const email = `rollup-${randomUUID().slice(0, 8)}@example.com`;
    const cookie = await t.signIn(email);
    const [row] = await rowsOf<{ id: string }>(t.db, sql`select id from users where email = ${email}`);
    const person = { email, cookie, id: row!.id };
    people.push(person);
    await addCard(person, (['good', 'soon', 'poor'] as const)[s.n % 3]!);
    return;
  }
  current = s.kind;
  const headers = { cookie: p.cookie };
  const found = pick(await subsOf(p), s.n);
  const sub = found?.stripeId;
  const reason = { reason: 'rollup test' };
  switch (s.kind) {
    case 'checkout':
      t.clock.advance(11_000);
      await call({
        method: 'POST',
        url: '/api/billing/intents/checkout',
        headers,
        payload: { interval: s.n % 3 === 0 ? 'year' : 'month', quantity: 1 + (s.n % 5) },
      });
      break;
    case 'quantity':
      if (sub)
        await call({
          method: 'PUT',
          url: `/api/billing/subscriptions/${sub}/quantity`,
          headers,
          payload: { quantity: 1 + (s.n % 7) },
        });
      break;
    case 'interval':
      if (sub) {
        const interval = found.interval === 'year' ? 'month' : 'year';
        await call({ method: 'PATCH', url: `/api/billing/subscriptions/${sub}`, headers, payload: { interval } });
      }
      break;
    case 'cancel':
      if (sub) await call({ method: 'DELETE', url: `/api/billing/subscriptions/${sub}`, headers });
      break;
    case 'reactivate':
      if (sub) await call({ method: 'POST', url: `/api/billing/subscriptions/${sub}/reactivate`, headers });
      break;
    case 'cancelNow':
      if (sub)
        await call(
          { method: 'POST', url: `/api/console/subscriptions/${sub}/cancel-now`, headers: { cookie: owner }, payload: reason },
          'console',
        );
      break;
    case 'renew':
      t.clock.advance(s.days * DAY);
      done.set('renew', (done.get('renew') ?? 0) + (await t.app.ctx.services.billing.runRenewals()));
      // Sessions end after their idle time: everyone signs in again.
      owner = await t.signInStaff('owner@vendor.example');
      for (const q of people) q.cookie = await t.signIn(q.email, { onboard: false });
      break;
    case 'refund':
    case 'credit': {
      const paid = await rowsOf<{ id: string }>(t.db, sql`select id from invoices where user_id = ${p.id} and status = 'paid'`);
      const invoice = pick(paid, s.n);
      if (invoice)
        await call(
          {
            method: 'POST',
            url: `/api/console/invoices/${invoice.id}/${s.kind}`,
            headers: { cookie: owner },
            payload: { ...reason, amount: 1 + (s.n % 500) },
          },
          'console',
        );
      break;
    }
    case 'card':
      await addCard(p, (['good', 'soon', 'poor'] as const)[s.n % 3]!);
      break;
    case 'removeCard': {
      const cards = (await call({ method: 'GET', url: '/api/billing/methods', headers })).json().items as
        Array<{ id: string }> | undefined;
      const card = pick(cards ?? [], s.n);
      if (card) await call({ method: 'DELETE', url: `/api/billing/methods/${card.id}`, headers });
      break;
    }
    case 'deleteAccount':
      // Rarer than the rest, so that customers stay to change things.
      if (s.n % 3 !== 0 || people.length < 3) break;
      await call(
        { method: 'POST', url: `/api/console/customers/${p.id}/delete`, headers: { cookie: owner }, payload: reason },
        'console',
      );
      people.splice(people.indexOf(p), 1);
      break;
    case 'byHand':
      // A statement no service wrote (a support engineer's fix): the triggers see it too.
      await t.db.execute(
        sql`update subscriptions set quantity = quantity + 1, updated_at = ${t.clock.now()}
            where id = (select id from subscriptions where user_id = ${p.id} order by created_at limit 1)`,
      );
      await t.db.execute(
        sql`update payment_methods set exp_month = 1, exp_year = ${t.clock.now().getUTCFullYear()}
            where id = (select payment_method_id from subscriptions
                         where user_id = ${p.id} and status = 'active' and not cancel_at_period_end order by created_at limit 1)`,
      );
      done.set('byHand', (done.get('byHand') ?? 0) + 1);
      break;
  }
  await settle(t);
}

type Snapshot = { counters: unknown[]; days: unknown[]; facts: unknown[] };
async function snapshot(db: Parameters<typeof rowsOf>[0]): Promise<Snapshot> {
  return {
    counters: await rowsOf(db, sql`select name, value::text from console_counters where value <> 0 order by name`),
    days: await rowsOf(
      db,
      sql`select day::text, new_subscriptions, churned_subscriptions, mrr12_started::text, mrr12_ended::text, revenue::text, failed_payments
            from console_days
           where new_subscriptions <> 0 or churned_subscriptions <> 0 or mrr12_started <> 0 or mrr12_ended <> 0 or revenue <> 0 or failed_payments <> 0
           order by day`,
    ),
    facts: await rowsOf(db, sql`select * from console_subscription_facts order by subscription_id`),
  };
}

/** The rollups as they are, and as console_rollups_rebuild() makes them again (rolled back). */
async function keptAndRecounted(): Promise<{ kept: Snapshot; recounted: Snapshot }> {
  const kept = await snapshot(t.db);
  let recounted: Snapshot | undefined;
  await t.db
    .transaction(async (tx) => {
      await tx.execute(sql`select console_rollups_rebuild()`);
      recounted = await snapshot(tx);
      throw new Error('rollback');
    })
    .catch((err: Error) => {
      if (err.message !== 'rollback') throw err;
    });
  return { kept, recounted: recounted! };
}

const step = (kind: string, who = 0, n = 1, days = 1): Step => ({ kind, who, n, days });
/** Every kind of change at least once, before the random sequences. */
const everyKind: Step[] = [
  step('signUp', 0, 0),
  step('signUp', 0, 3),
  step('signUp', 0, 5),
  step('checkout', 0, 1),
  step('checkout', 1, 1),
  step('checkout', 2, 0),
  step('quantity', 0, 2),
  step('interval', 0),
  step('cancel', 0),
  step('reactivate', 0),
  step('cancel', 0),
  step('cancelNow', 1),
  step('refund', 0),
  step('credit', 0),
  step('card', 0, 1),
  // A monthly subscription on a good card, so the renewal below renews one whatever the random runs do.
  step('checkout', 1, 4),
  step('renew', 0, 1, 35),
  step('removeCard', 0),
  step('deleteAccount', 1, 0),
  step('checkout', 0, 2),
  step('byHand', 0),
];

describe('the console rollups', () => {
  it('always equal a full recount, whatever changes the tables and in whatever order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(steps, { minLength: 5, maxLength: 14 }), async (list) => {
        for (const s of list) await run(s);
        const { kept, recounted } = await keptAndRecounted();
        expect(kept).toEqual(recounted);
        for (const c of kept.counters as Array<{ name: string }>) moved.add(c.name);
        if (kept.days.length > 0) moved.add('days');
      }),
      { numRuns: 15, examples: [[everyKind]] },
    );
    // The runs made each kind of figure move (a property over nothing proves nothing): counted after
    // each run, since a random run may end with every subscription cancelled or its customer deleted.
    expect([...moved]).toEqual(
      expect.arrayContaining(['customers', 'invoices', 'licenses', 'subscriptions_with_customer', 'days']),
    );
    for (const kind of ['checkout', 'quantity', 'interval', 'cancel', 'cancelNow', 'renew', 'refund', 'credit', 'card']) {
      expect(done.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it("answer the overview's headline as a count of the tables does", async () => {
    const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/overview', headers: { cookie: owner } });
    expect(res.statusCode, res.body).toBe(200);
    const o: Overview = res.json();
    const [direct] = await rowsOf<Record<string, string>>(
      t.db,
      sql`select round(coalesce(sum(case when interval = 'year' then unit_amount * quantity / 12.0 else unit_amount * quantity end), 0))::text as mrr,
                 count(*) filter (where status = 'active')::text as active, count(*) filter (where status = 'past_due')::text as past_due,
                 (select count(*) from users)::text as customers
            from subscriptions where status in ('active', 'past_due')`,
    );
    expect(o).toMatchObject({
      mrr: Number(direct!.mrr),
      activeSubscriptions: Number(direct!.active),
      pastDueSubscriptions: Number(direct!.past_due),
      customers: Number(direct!.customers),
    });
    expect(o.months.at(-1)!.mrr).toBe(o.mrr);
  });
});
