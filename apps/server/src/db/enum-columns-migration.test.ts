import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import {
  auditEvents,
  billingNotices,
  consoleDays,
  invoiceRefunds,
  invoices,
  licenses,
  setupIntents,
  staffAudit,
  webhookDeliveries,
} from './schema/index';
import { databaseMigratedUpTo, type OlderDatabase } from '../../test/migrations';

// 0024_typed_audit_and_enums (docs/decisions/116-typed-audit-and-enum-columns.md).
const BEFORE = '0022_invoice_tax_and_numbers';
const user = '00000000-0000-4000-8000-000000000001';
const staffId = '00000000-0000-4000-8000-000000000002';
const subscription = '00000000-0000-4000-8000-000000000003';
const invoice = '00000000-0000-4000-8000-000000000004';
const endpoint = '00000000-0000-4000-8000-000000000005';

const rows = `
  insert into users (id, email) values ('${user}', 'enums@example.com');
  insert into staff (id, email, role) values ('${staffId}', 'owner@example.com', 'owner');
  insert into staff_audit (staff_id, staff_email, action, reason, user_id, subject, at) values
    ('${staffId}', 'owner@example.com', 'suspendLicense', 'abuse', '${user}', 'KEY-A', '2026-01-01T00:00:00Z'),
    ('${staffId}', 'owner@example.com', 'staff_added', 'new hire', null, 'new@example.com', '2026-01-02T00:00:00Z'),
    ('${staffId}', 'owner@example.com', 'exportInvoices', '', null, 'invoices.csv', '2026-01-03T00:00:00Z');
  insert into audit_events (user_id, actor, action, summary, created_at) values
    ('${user}', 'user', 'signed_in', 'Signed in', '2026-01-01T00:00:00Z'),
    ('${user}', 'system', 'license_suspended', 'License suspended', '2026-01-02T00:00:00Z');
  insert into licenses (key, user_id, status, max_nodes, expires_at) values
    ('KEY-A', '${user}', 'suspended', 3, '2030-01-01T00:00:00Z'),
    ('KEY-B', '${user}', 'active', 1, '2030-01-01T00:00:00Z');
  insert into subscriptions (id, provider_id, user_id, provider, status, plan, quantity, interval, unit_amount, currency,
                             current_period_start, current_period_end)
    values ('${subscription}', 'sub_enum', '${user}', 'local', 'active', 'Standard', 1, 'month', 2500, 'usd', now(), now() + interval '1 month');
  insert into invoices (id, number, subscription_id, user_id, status, currency, amount_due, amount_paid, period_start, period_end, lines, reason)
    values ('${invoice}', 'INV-1', '${subscription}', '${user}', 'paid', 'usd', 2500, 2500, now(), now() + interval '1 month', '[]', 'subscription_create');
  insert into invoice_refunds (id, invoice_id, amount, currency, kind, op_id) values
    ('re_1', '${invoice}', 500, 'usd', 'credit', 'op_1');
  insert into setup_intents (id, customer_id, client_secret_hash) values ('seti_1', 'cus_1', 'hash_1');
  insert into billing_notices (subscription_id, kind, period_end) values ('${subscription}', 'card-expiring', now());
  insert into webhook_endpoints (id, url, secret_sealed) values ('${endpoint}', 'https://example.com/hook', 'sealed');
  insert into webhook_messages (id, type, resource_type, resource_id, sequence, payload, created_at)
    values ('msg_1', 'license.updated', 'license', 'KEY-A', 1, '{}', now());
  insert into webhook_deliveries (endpoint_id, message_id, status, created_at, updated_at)
    values ('${endpoint}', 'msg_1', 'delivered', now(), now());
`;

let older: OlderDatabase | undefined;
afterEach(async () => {
  await older?.close();
  older = undefined;
});

/** The message of an error or of any error it wraps (drizzle wraps the database's). */
function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e = err; e instanceof Error; e = e.cause) parts.push(e.message);
  return parts.join(' / ');
}

it('keeps every row when the audit actions and the status and kind columns become enums, and refuses other values after', async () => {
  older = await databaseMigratedUpTo(BEFORE);
  await older.run(rows);
  const { db } = await older.upgrade();

  expect(await db.select({ action: staffAudit.action }).from(staffAudit).orderBy(asc(staffAudit.at))).toEqual([
    { action: 'suspendLicense' },
    { action: 'staff_added' },
    { action: 'exportInvoices' },
  ]);
  expect(await db.select({ action: auditEvents.action }).from(auditEvents).orderBy(asc(auditEvents.createdAt))).toEqual([
    { action: 'signed_in' },
    { action: 'license_suspended' },
  ]);
  expect(await db.select({ key: licenses.key, status: licenses.status }).from(licenses).orderBy(asc(licenses.key))).toEqual([
    { key: 'KEY-A', status: 'suspended' },
    { key: 'KEY-B', status: 'active' },
  ]);
  expect(await db.select({ status: invoices.status }).from(invoices)).toEqual([{ status: 'paid' }]);
  expect(await db.select({ kind: invoiceRefunds.kind }).from(invoiceRefunds)).toEqual([{ kind: 'credit' }]);
  expect(await db.select({ status: setupIntents.status }).from(setupIntents)).toEqual([{ status: 'requires_payment_method' }]);
  expect(await db.select({ kind: billingNotices.kind }).from(billingNotices)).toEqual([{ kind: 'card-expiring' }]);
  expect(await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries)).toEqual([{ status: 'delivered' }]);

  // The defaults are kept.
  for (const statement of [
    `insert into licenses (key, max_nodes, expires_at) values ('KEY-C', 1, now())`,
    `insert into invoice_refunds (id, invoice_id, amount, currency, op_id) values ('re_2', '${invoice}', 100, 'usd', 'op_2')`,
    `insert into setup_intents (id, customer_id, client_secret_hash) values ('seti_2', 'cus_1', 'hash_2')`,
    `insert into webhook_deliveries (endpoint_id, message_id, created_at, updated_at) values ('${endpoint}', 'msg_1', now(), now())`,
  ]) {
    await db.execute(statement);
  }
  expect((await db.select({ s: licenses.status }).from(licenses).where(eq(licenses.key, 'KEY-C')))[0]?.s).toBe('active');
  expect((await db.select({ k: invoiceRefunds.kind }).from(invoiceRefunds).where(eq(invoiceRefunds.id, 're_2')))[0]?.k).toBe(
    'refund',
  );
  expect((await db.select({ s: setupIntents.status }).from(setupIntents).where(eq(setupIntents.id, 'seti_2')))[0]?.s).toBe(
    'requires_payment_method',
  );
  expect(await db.select({ s: webhookDeliveries.status }).from(webhookDeliveries).orderBy(asc(webhookDeliveries.id))).toEqual([
    { s: 'delivered' },
    { s: 'pending' },
  ]);

  // The rollup trigger made again on the enum still counts a failed payment (and nothing else).
  const failed = async () =>
    (await db.select({ n: sql<number>`coalesce(sum(${consoleDays.failedPayments}), 0)::int` }).from(consoleDays))[0]?.n;
  const failedBefore = await failed();
  await db.insert(auditEvents).values([
    { userId: user, actor: 'system', action: 'subscription_payment_failed', summary: 'Payment failed' },
    { userId: user, actor: 'user', action: 'signed_in', summary: 'Signed in' },
  ]);
  expect(await failed()).toBe(failedBefore! + 1);

  // A value outside its list is refused by the database itself.
  for (const statement of [
    `update staff_audit set action = 'suspendLicence'`,
    `update audit_events set action = 'signed_on'`,
    `update licenses set status = 'expired'`,
    `update invoices set status = 'refunded'`,
    `update invoice_refunds set kind = 'chargeback'`,
    `update setup_intents set status = 'canceled'`,
    `update billing_notices set kind = 'welcome'`,
    `update webhook_deliveries set status = 'retrying'`,
  ]) {
    await expect(db.execute(statement), statement).rejects.toThrow();
  }
});

it('stops at a row whose value is in no list, naming the value', async () => {
  older = await databaseMigratedUpTo(BEFORE);
  await older.run(rows);
  await older.run(
    `insert into staff_audit (staff_email, action, reason) values ('owner@example.com', 'somethingUnheardOf', 'why')`,
  );
  const failure = await older.upgrade().then(
    () => null,
    (err: unknown) => err,
  );
  expect(messages(failure)).toMatch(/invalid input value for enum staff_audit_action: "somethingUnheardOf"/);
});
