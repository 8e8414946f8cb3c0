import { asc, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { customers, subscriptions } from '../../db/schema/index';
import { databaseMigratedUpTo, type OlderDatabase } from '../../../test/migrations';

let older: OlderDatabase | undefined;
afterAll(async () => {
  await older?.close();
});

it('keeps every subscription and customer when status, interval and provider become enum columns', async () => {
  older = await databaseMigratedUpTo('0003_billing_notices');
  const user = '00000000-0000-4000-8000-000000000001';
  await older.run(`
    insert into users (id, email) values ('${user}', 'enum@example.com');
    insert into customers (user_id, provider, provider_customer_id) values ('${user}', 'stripe', 'cus_enum');
    insert into subscriptions (provider_id, user_id, provider, status, plan, quantity, interval, unit_amount, currency,
                               current_period_start, current_period_end)
    values ('sub_a', '${user}', 'local', 'active', 'Standard', 3, 'month', 2500, 'usd', now(), now() + interval '1 month'),
           ('sub_b', '${user}', 'stripe', 'past_due', 'Standard', 1, 'year', 25000, 'usd', now(), now() + interval '1 year'),
           ('sub_c', '${user}', 'local', 'canceled', 'Standard', 2, 'month', 2500, 'usd', now(), now());
  `);
  const { db } = await older.upgrade();
  const rows = await db
    .select({
      id: subscriptions.providerId,
      provider: subscriptions.provider,
      status: subscriptions.status,
      interval: subscriptions.interval,
    })
    .from(subscriptions)
    .orderBy(asc(subscriptions.providerId));
  expect(rows).toEqual([
    { id: 'sub_a', provider: 'local', status: 'active', interval: 'month' },
    { id: 'sub_b', provider: 'stripe', status: 'past_due', interval: 'year' },
    { id: 'sub_c', provider: 'local', status: 'canceled', interval: 'month' },
  ]);
  const [customer] = await db.select().from(customers).where(eq(customers.userId, user));
  expect(customer?.provider).toBe('stripe');
  // The renewal worker's partial index still serves its query on the enum column.
  const due = await db.select({ id: subscriptions.providerId }).from(subscriptions).where(eq(subscriptions.status, 'active'));
  expect(due).toEqual([{ id: 'sub_a' }]);
  // A value outside the enum is refused by the database itself.
  await expect(db.execute(`update subscriptions set status = 'paused' where provider_id = 'sub_a'`)).rejects.toThrow();
});
