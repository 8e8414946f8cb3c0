import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_EXPIRING_SOON_DAYS, isLicenseKeyChecksumValid } from '@portal/contract';
import { auditEvents, licenses, nodes, subscriptions, users } from '../../db/schema/index';
import { AppError } from '../../lib/errors';
import { buildTestApp, type TestApp } from '../../../test/helpers';

const DAY = 86_400_000;

let t: TestApp;
let svc: TestApp['app']['ctx']['services']['licenses'];
let userId: string;

beforeAll(async () => {
  t = await buildTestApp();
  svc = t.app.ctx.services.licenses;
  await t.signIn('owner@example.com');
  userId = (await t.db.select().from(users).where(eq(users.email, 'owner@example.com')))[0]!.id;
});
afterAll(() => t.close());

const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY);

async function subscription(owner = userId) {
  const now = t.clock.now();
  const [row] = await t.db
    .insert(subscriptions)
    .values({
      providerId: `sub_${randomBytes(6).toString('hex')}`,
      userId: owner,
      provider: 'local',
      status: 'active',
      plan: 'Node license',
      quantity: 3,
      interval: 'month',
      unitAmount: 2500,
      currency: 'usd',
      currentPeriodStart: now,
      currentPeriodEnd: inDays(30),
    })
    .returning();
  return row!;
}

async function licenseRow(key: string) {
  return (await t.db.select().from(licenses).where(eq(licenses.key, key)))[0]!;
}

async function eventsOf(licenseId: string) {
  return t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, 'license'), eq(auditEvents.subjectId, licenseId)));
}

async function activateNodes(key: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${key}/activate`,
      payload: { fingerprint: `${key}-${i}` },
    });
    expect(res.statusCode).toBe(201);
    // Distinct activation times give the nodes a known order.
    t.clock.advance(1000);
  }
}

describe('issue', () => {
  it('creates a license with a valid, unique key inside the caller’s transaction and records it', async () => {
    const sub = await subscription();
    const { id, key } = await t.db.transaction((tx) =>
      svc.issue(tx, { userId, subscriptionId: sub.id, maxNodes: 5, expiresAt: inDays(30), actor: 'billing' }),
    );
    expect(isLicenseKeyChecksumValid(key)).toBe(true);
    const row = await licenseRow(key);
    expect(row).toMatchObject({ id, userId, subscriptionId: sub.id, maxNodes: 5, status: 'active', revokedAt: null });
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({ action: 'license_issued', actor: 'billing', userId });
    expect(event!.summary).toBe(
      `Issued license ${key.slice(0, 5)}-… for 5 nodes, valid until ${inDays(30).toISOString().slice(0, 10)}`,
    );
  });

  it('rolls back with the caller’s transaction', async () => {
    let key = '';
    await expect(
      t.db.transaction(async (tx) => {
        key = (await svc.issue(tx, { userId, subscriptionId: null, maxNodes: 1, expiresAt: inDays(1), actor: 'x' })).key;
        throw new Error('payment failed later');
      }),
    ).rejects.toThrow('payment failed later');
    expect(await t.db.select().from(licenses).where(eq(licenses.key, key))).toHaveLength(0);
  });

  it.each([0, -1, 1.5])('refuses %s nodes', async (maxNodes) => {
    await expect(svc.issue(t.db, { userId, subscriptionId: null, maxNodes, expiresAt: inDays(1), actor: 'x' })).rejects.toThrow(
      AppError,
    );
  });
});

describe('resizeForSubscription', () => {
  it('raises and lowers the node limit and records the change', async () => {
    const sub = await subscription();
    const { id, key } = await svc.issue(t.db, { userId, subscriptionId: sub.id, maxNodes: 3, expiresAt: inDays(30), actor: 'x' });
    expect(await svc.resizeForSubscription(t.db, sub.id, 7, 'owner@example.com')).toEqual([key]);
    expect((await licenseRow(key)).maxNodes).toBe(7);
    await svc.resizeForSubscription(t.db, sub.id, 2, 'owner@example.com');
    expect((await licenseRow(key)).maxNodes).toBe(2);
    const resized = (await eventsOf(id)).filter((e) => e.action === 'license_resized').map((e) => e.summary);
    expect(resized).toEqual([
      `Changed license ${key.slice(0, 5)}-… from 3 nodes to 7 nodes`,
      `Changed license ${key.slice(0, 5)}-… from 7 nodes to 2 nodes`,
    ]);
  });

  it('refuses to shrink below the active nodes, saying how many to release', async () => {
    const sub = await subscription();
    const { key } = await svc.issue(t.db, { userId, subscriptionId: sub.id, maxNodes: 5, expiresAt: inDays(30), actor: 'x' });
    await activateNodes(key, 5);
    const attempt = t.db.transaction((tx) => svc.resizeForSubscription(tx, sub.id, 3, 'x'));
    await expect(attempt).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: 'This license has 5 active nodes. Release 2 nodes before lowering the quantity to 3.',
    });
    expect((await licenseRow(key)).maxNodes).toBe(5);
    await expect(svc.resizeForSubscription(t.db, sub.id, 4, 'x')).rejects.toThrow(
      'Release 1 node before lowering the quantity to 4.',
    );
    expect(await svc.resizeForSubscription(t.db, sub.id, 5, 'x')).toEqual([]);
  });

  it('allows the shrink once enough nodes are released', async () => {
    const sub = await subscription();
    const { id, key } = await svc.issue(t.db, { userId, subscriptionId: sub.id, maxNodes: 4, expiresAt: inDays(30), actor: 'x' });
    await activateNodes(key, 4);
    await expect(svc.resizeForSubscription(t.db, sub.id, 2, 'x')).rejects.toThrow(
      'This license has 4 active nodes. Release 2 nodes before lowering the quantity to 2.',
    );
    const [first, second] = await t.db.select().from(nodes).where(eq(nodes.licenseId, id)).orderBy(asc(nodes.activatedAt));
    await svc.releaseNode(userId, key, first!.id, 'owner@example.com');
    await expect(svc.resizeForSubscription(t.db, sub.id, 2, 'x')).rejects.toThrow(
      'This license has 3 active nodes. Release 1 node before lowering the quantity to 2.',
    );
    await svc.releaseNode(userId, key, second!.id, 'owner@example.com');
    expect(await svc.resizeForSubscription(t.db, sub.id, 2, 'x')).toEqual([key]);
    expect(await licenseRow(key)).toMatchObject({ maxNodes: 2, activeNodes: 2 });
  });

  it('changes nothing for a subscription without a license', async () => {
    const sub = await subscription();
    expect(await svc.resizeForSubscription(t.db, sub.id, 2, 'x')).toEqual([]);
  });
});

describe('extendForSubscription and expireForSubscription', () => {
  it('extends only forwards, expires only backwards, and records both', async () => {
    const sub = await subscription();
    const { id, key } = await svc.issue(t.db, { userId, subscriptionId: sub.id, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    expect(await svc.extendForSubscription(t.db, sub.id, inDays(10), 'billing')).toEqual([]);
    expect(await svc.extendForSubscription(t.db, sub.id, inDays(60), 'billing')).toEqual([key]);
    expect((await licenseRow(key)).expiresAt.toISOString()).toBe(inDays(60).toISOString());
    expect(await svc.expireForSubscription(t.db, sub.id, inDays(90), 'billing')).toEqual([]);
    const now = t.clock.now();
    expect(await svc.expireForSubscription(t.db, sub.id, now, 'billing')).toEqual([key]);
    expect((await licenseRow(key)).expiresAt.toISOString()).toBe(now.toISOString());
    const actions = (await eventsOf(id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['license_issued', 'license_extended', 'license_expired']));
    // Expiry is read from the date: no job had to mark it.
    const res = await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: {} });
    expect(res.json().code).toBe('EXPIRED');
  });
});

describe('revoke and revokeAllForUser', () => {
  it('revokes one key once', async () => {
    const { id, key } = await svc.issue(t.db, { userId, subscriptionId: null, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    expect(await svc.revoke(t.db, key, 'vendor')).toEqual({ key, alreadyRevoked: false });
    expect(await svc.revoke(t.db, key, 'vendor')).toEqual({ key, alreadyRevoked: true });
    const row = await licenseRow(key);
    expect(row.status).toBe('suspended');
    expect(row.revokedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect((await eventsOf(id)).filter((e) => e.action === 'license_revoked')).toHaveLength(1);
  });

  it('answers NOT_FOUND for an unknown key', async () => {
    await expect(svc.revoke(t.db, 'ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', 'vendor')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('suspends every license of a user and no one else’s', async () => {
    await t.signIn('leaving@example.com');
    const leaving = (await t.db.select().from(users).where(eq(users.email, 'leaving@example.com')))[0]!.id;
    const a = await svc.issue(t.db, { userId: leaving, subscriptionId: null, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    const b = await svc.issue(t.db, { userId: leaving, subscriptionId: null, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    const kept = await svc.issue(t.db, { userId, subscriptionId: null, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    expect(await t.db.transaction((tx) => svc.revokeAllForUser(tx, leaving, 'leaving@example.com'))).toBe(2);
    expect((await licenseRow(a.key)).status).toBe('suspended');
    expect((await licenseRow(b.key)).revokedAt).not.toBeNull();
    expect((await licenseRow(kept.key)).status).toBe('active');
    expect(await svc.revokeAllForUser(t.db, leaving, 'x')).toBe(0);
  });
});

describe('keysBySubscription', () => {
  it('maps subscription ids to their license keys', async () => {
    const s1 = await subscription();
    const s2 = await subscription();
    const s3 = await subscription();
    const k1 = await svc.issue(t.db, { userId, subscriptionId: s1.id, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    const k2 = await svc.issue(t.db, { userId, subscriptionId: s2.id, maxNodes: 1, expiresAt: inDays(30), actor: 'x' });
    const map = await svc.keysBySubscription([s1.id, s2.id, s3.id]);
    expect(map).toEqual(
      new Map([
        [s1.id, k1.key],
        [s2.id, k2.key],
      ]),
    );
    expect(await svc.keysBySubscription([])).toEqual(new Map());
  });
});

describe('summaryForUser and exportForUser', () => {
  it('sums usable licenses, names those at their limit and those expiring soon', async () => {
    await t.signIn('summary@example.com');
    const owner = (await t.db.select().from(users).where(eq(users.email, 'summary@example.com')))[0]!.id;
    const full = await svc.issue(t.db, { userId: owner, subscriptionId: null, maxNodes: 2, expiresAt: inDays(100), actor: 'x' });
    const soonExpiry = inDays(LICENSE_EXPIRING_SOON_DAYS - 1);
    const soon = await svc.issue(t.db, { userId: owner, subscriptionId: null, maxNodes: 3, expiresAt: soonExpiry, actor: 'x' });
    const revoked = await svc.issue(t.db, {
      userId: owner,
      subscriptionId: null,
      maxNodes: 10,
      expiresAt: inDays(100),
      actor: 'x',
    });
    await activateNodes(full.key, 2);
    await activateNodes(soon.key, 1);
    await activateNodes(revoked.key, 1);
    await svc.revoke(t.db, revoked.key, 'vendor');
    expect(await svc.summaryForUser(owner)).toEqual({
      licenses: 3,
      activeNodes: 3,
      maxNodes: 5,
      atLimit: [full.key],
      expiringSoon: [{ key: soon.key, expiresAt: soonExpiry.toISOString() }],
      suspended: [revoked.key],
      suspensionMessages: {},
    });

    const exported = await svc.exportForUser(owner);
    expect(exported.map((l) => l.licenseKey).sort()).toEqual([full.key, soon.key, revoked.key].sort());
    const fullExport = exported.find((l) => l.licenseKey === full.key)!;
    expect(fullExport).toMatchObject({ status: 'active', maxNodes: 2, revokedAt: null });
    expect(fullExport.nodes.map((n) => n.fingerprint)).toEqual([`${full.key}-0`, `${full.key}-1`]);
    expect(exported.find((l) => l.licenseKey === revoked.key)).toMatchObject({
      status: 'suspended',
      revokedAt: expect.any(String),
    });
  });

  it('answers zeros for a user without licenses', async () => {
    await t.signIn('empty@example.com');
    const owner = (await t.db.select().from(users).where(eq(users.email, 'empty@example.com')))[0]!.id;
    expect(await svc.summaryForUser(owner)).toEqual({
      licenses: 0,
      activeNodes: 0,
      maxNodes: 0,
      atLimit: [],
      expiringSoon: [],
      suspended: [],
      suspensionMessages: {},
    });
    expect(await svc.exportForUser(owner)).toEqual([]);
  });
});
