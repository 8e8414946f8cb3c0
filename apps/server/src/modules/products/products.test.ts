import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupportInfoSchema, type SubscriptionStatus } from '@portal/contract';
import { subscriptions, users } from '../../db/schema/index';
import type { Tx } from '../../db/client';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PREMIUM_SUPPORT_MIN_NODES: '10' });
});
afterAll(() => t.close());

const DAY = 86_400_000;

async function signedInUser(email: string) {
  const cookie = await t.signIn(email);
  const [user] = await t.db.select().from(users).where(eq(users.email, email));
  return { cookie, id: user!.id };
}

/** A subscription row as the local billing engine keeps it. */
async function addSubscription(
  userId: string,
  quantity: number,
  opts: { status?: SubscriptionStatus; endsInDays?: number } = {},
) {
  const now = t.clock.now();
  const [row] = await t.db
    .insert(subscriptions)
    .values({
      providerId: `sub_${randomBytes(8).toString('hex')}`,
      userId,
      provider: 'local',
      status: opts.status ?? 'active',
      plan: 'Node license',
      quantity,
      interval: 'month',
      unitAmount: 2500,
      currency: 'usd',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + (opts.endsInDays ?? 30) * DAY),
    })
    .returning();
  return row!;
}

async function support(cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/products/support', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return SupportInfoSchema.parse(res.json());
}

describe('GET /api/products/support', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/support' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please sign in to continue' });
  });

  it('gives a customer without a subscription community support, answered on a best-effort basis', async () => {
    const { cookie } = await signedInUser('nosub@example.com');
    const info = await support(cookie);
    expect(info).toMatchObject({ plan: 'none', planName: 'Community support', licensedNodes: 0, premiumMinNodes: 10 });
    expect(info.channels).toEqual([{ kind: 'email', label: 'E-mail (best effort)', value: 'support@example.com' }]);
    expect(info.links).toContainEqual({ label: 'Documentation', url: t.config.brand.docsUrl });
    expect(info.links).toContainEqual({ label: 'Status page', url: t.config.support.statusPageUrl });
    expect(info.links).toContainEqual({ label: 'Knowledge base', url: t.config.support.knowledgeBaseUrl });
  });

  it('derives standard and premium from the nodes of the active subscriptions', async () => {
    const { cookie, id } = await signedInUser('plans@example.com');
    await addSubscription(id, 4);
    expect((await support(cookie)).plan).toBe('standard');
    await addSubscription(id, 20, { status: 'canceled' });
    await addSubscription(id, 20, { endsInDays: -1 });
    expect(await support(cookie)).toMatchObject({ plan: 'standard', licensedNodes: 4 });
    await addSubscription(id, 6);
    const premium = await support(cookie);
    expect(premium).toMatchObject({ plan: 'premium', licensedNodes: 10, planName: 'Premium support' });
    expect(premium.channels.map((c) => c.kind)).toContain('phone');
  });

  it("never counts another customer's subscriptions", async () => {
    const other = await signedInUser('big@example.com');
    await addSubscription(other.id, 50);
    const { cookie } = await signedInUser('small@example.com');
    expect(await support(cookie)).toMatchObject({ plan: 'none', licensedNodes: 0 });
    expect((await support(other.cookie)).plan).toBe('premium');
  });

  it('is a read: refuses unknown methods and writes nothing', async () => {
    const { cookie } = await signedInUser('post@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/products/support', headers: { cookie }, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});

describe('GET /api/products/licenses', () => {
  it('answers 401 when signed out', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/products/licenses' })).statusCode).toBe(401);
  });

  it("sums the user's own licenses and nodes, and lists those at their limit or expiring soon", async () => {
    const { cookie, id } = await signedInUser('dash@example.com');
    const other = await signedInUser('dash-other@example.com');
    const licenses = t.app.ctx.services.licenses;
    const now = t.clock.now();
    const issue = (tx: Tx, userId: string, maxNodes: number, days: number) =>
      licenses.issue(tx, {
        userId,
        subscriptionId: null,
        maxNodes,
        expiresAt: new Date(now.getTime() + days * DAY),
        actor: 'test',
      });
    const issued = await t.db.transaction(async (tx) => ({
      full: await issue(tx, id, 1, 90),
      soon: await issue(tx, id, 5, 3),
      foreign: await issue(tx, other.id, 7, 90),
    }));
    const act = await t.app.inject({
      method: 'POST',
      url: `/api/licenses/${issued.full.key}/activate`,
      payload: { fingerprint: 'node-a' },
    });
    expect(act.statusCode, act.body).toBe(201);

    const res = await t.app.inject({ method: 'GET', url: '/api/products/licenses', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      licenses: 2,
      activeNodes: 1,
      maxNodes: 6,
      atLimit: [issued.full.key],
      expiringSoon: [{ key: issued.soon.key, expiresAt: new Date(now.getTime() + 3 * DAY).toISOString() }],
      suspended: [],
      suspensionMessages: {},
    });
  });
});
