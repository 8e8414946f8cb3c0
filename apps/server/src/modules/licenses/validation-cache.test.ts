import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Notifications, Subscriber } from '../../db/notifications';
import { licenses, nodes, users } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import type { ValidationQueries } from './licenses.repository';
import { createValidationCache, LICENSE_CHANGED_CHANNEL } from './validation-cache';

const DAY = 86_400_000;

/** Queries over an in-memory table that count their calls and can be held back. */
function fakeQueries() {
  const table = new Map<
    string,
    { id: string; status: string; maxNodes: number; activeNodes: number; nodes: Map<string, string> }
  >();
  const calls = { licenseByKey: 0, nodesOf: 0, nodeIdOf: 0, direct: 0 };
  let gate: Promise<void> | undefined;
  const row = (key: string) => {
    const l = table.get(key);
    return (
      l && {
        id: l.id,
        key,
        status: l.status,
        maxNodes: l.maxNodes,
        activeNodes: l.activeNodes,
        expiresAt: new Date(Date.now() + DAY),
      }
    );
  };
  const queries = {
    async licenseByKey(key: string) {
      calls.licenseByKey++;
      const r = row(key);
      await gate;
      return r;
    },
    async nodesOf(licenseId: string) {
      calls.nodesOf++;
      const l = [...table.values()].find((x) => x.id === licenseId)!;
      return [...l.nodes].map(([fingerprint, id]) => ({ fingerprint, id }));
    },
    async nodeIdOf(licenseId: string, fingerprint: string) {
      calls.nodeIdOf++;
      return [...table.values()].find((x) => x.id === licenseId)?.nodes.get(fingerprint);
    },
    async findForValidation(key: string, fingerprint: string | undefined) {
      calls.direct++;
      const r = row(key);
      if (!r) return undefined;
      const { id: _id, ...rest } = r;
      return { ...rest, nodeId: (fingerprint && table.get(key)!.nodes.get(fingerprint)) || null };
    },
  } as unknown as ValidationQueries;
  return {
    table,
    calls,
    queries,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

function fakeNotifications(fresh = () => performance.now()) {
  const subs = new Set<Subscriber>();
  const n: Notifications & { announce: (key: string) => void; lose: () => void; fresh: () => number } = {
    fresh,
    subscribe(channel, s) {
      expect(channel).toBe(LICENSE_CHANGED_CHANNEL);
      subs.add(s);
      return () => subs.delete(s);
    },
    freshThrough: () => n.fresh(),
    close: async () => {},
    announce: (key) => subs.forEach((s) => s.onMessage(key)),
    lose: () => subs.forEach((s) => s.onReset()),
  };
  return n;
}

function license(f: ReturnType<typeof fakeQueries>, key: string, nodeCount: number) {
  const l = {
    id: `id-${key}`,
    status: 'active',
    maxNodes: nodeCount + 1,
    activeNodes: nodeCount,
    nodes: new Map<string, string>(),
  };
  for (let i = 0; i < nodeCount; i++) l.nodes.set(`${key}-fp${i}`, `${key}-node${i}`);
  f.table.set(key, l);
  return l;
}

describe('validation cache', () => {
  it('loads a license and its nodes once, then answers from memory, unknown fingerprints and keys included', async () => {
    const f = fakeQueries();
    license(f, 'A', 3);
    const cache = createValidationCache({ queries: f.queries, notifications: fakeNotifications() });
    for (let i = 0; i < 5; i++) {
      expect(await cache.find('A', 'A-fp1')).toMatchObject({ key: 'A', nodeId: 'A-node1', activeNodes: 3 });
      expect(await cache.find('A', 'other')).toMatchObject({ key: 'A', nodeId: null });
      expect(await cache.find('A', undefined)).toMatchObject({ key: 'A', nodeId: null });
      expect(await cache.find('NOPE', 'x')).toBeUndefined();
    }
    expect(f.calls).toEqual({ licenseByKey: 2, nodesOf: 1, nodeIdOf: 0, direct: 0 });
  });

  it('drops a license when its key is announced, and a key that gets a license', async () => {
    const f = fakeQueries();
    const l = license(f, 'A', 1);
    const n = fakeNotifications();
    const cache = createValidationCache({ queries: f.queries, notifications: n });
    expect(await cache.find('A', 'A-fp0')).toMatchObject({ status: 'active' });
    expect(await cache.find('B', undefined)).toBeUndefined();
    l.status = 'suspended';
    license(f, 'B', 0);
    expect(await cache.find('A', 'A-fp0')).toMatchObject({ status: 'active' });
    n.announce('A');
    n.announce('B');
    expect(await cache.find('A', 'A-fp0')).toMatchObject({ status: 'suspended' });
    expect(await cache.find('B', undefined)).toMatchObject({ key: 'B' });
  });

  it('drops everything when the notification connection is lost', async () => {
    const f = fakeQueries();
    const l = license(f, 'A', 1);
    const n = fakeNotifications();
    const cache = createValidationCache({ queries: f.queries, notifications: n });
    await cache.find('A', 'A-fp0');
    l.nodes.clear();
    n.lose();
    expect(await cache.find('A', 'A-fp0')).toMatchObject({ nodeId: null });
    expect(cache.stats()).toMatchObject({ resets: 1, licenses: 1 });
  });

  it('reads the database while notifications are not known to be caught up', async () => {
    const f = fakeQueries();
    license(f, 'A', 1);
    let lastHeartbeat = 199;
    const n = fakeNotifications(() => lastHeartbeat);
    const cache = createValidationCache({ queries: f.queries, notifications: n, maxStaleMs: 800, now: () => 1000 });
    await cache.find('A', 'A-fp0');
    await cache.find('A', 'A-fp0');
    expect(f.calls).toMatchObject({ licenseByKey: 0, direct: 2 });
    lastHeartbeat += 1;
    await cache.find('A', 'A-fp0');
    await cache.find('A', 'A-fp0');
    expect(f.calls).toMatchObject({ licenseByKey: 1, direct: 2 });
  });

  it('does not keep a load that a change overlapped, but answers from it', async () => {
    const f = fakeQueries();
    const l = license(f, 'A', 1);
    const n = fakeNotifications();
    const cache = createValidationCache({ queries: f.queries, notifications: n });
    const release = f.hold();
    const pending = cache.find('A', 'A-fp0');
    // The load read the license before this change committed; the announcement came during the load.
    l.status = 'suspended';
    n.announce('A');
    release();
    expect(await pending).toMatchObject({ status: 'active' });
    expect(await cache.find('A', 'A-fp0')).toMatchObject({ status: 'suspended' });
    expect(f.calls.licenseByKey).toBe(2);
  });

  it('reads a license this instance is changing from the database until its notification surely came', async () => {
    const f = fakeQueries();
    license(f, 'A', 1);
    let now = 0;
    const cache = createValidationCache({
      queries: f.queries,
      notifications: fakeNotifications(() => now),
      changingMs: 2000,
      now: () => now,
    });
    await cache.find('A', 'A-fp0');
    cache.changing('A');
    await cache.find('A', 'A-fp0');
    expect(f.calls).toMatchObject({ licenseByKey: 1, direct: 1 });
    now = 2001;
    await cache.find('A', 'A-fp0');
    expect(f.calls).toMatchObject({ licenseByKey: 2, direct: 1 });
  });

  it('stays within its node budget, dropping the least recently used licenses', async () => {
    const f = fakeQueries();
    for (const key of ['A', 'B', 'C']) license(f, key, 9);
    const cache = createValidationCache({ queries: f.queries, notifications: fakeNotifications(), maxNodes: 25 });
    await cache.find('A', undefined);
    await cache.find('B', undefined);
    await cache.find('A', undefined);
    await cache.find('C', undefined);
    expect(cache.stats()).toMatchObject({ licenses: 2, held: 20, evictions: 1 });
    await cache.find('A', undefined);
    expect(f.calls.licenseByKey).toBe(3);
    await cache.find('B', undefined);
    expect(f.calls.licenseByKey).toBe(4);
  });

  it('keeps a large license without its nodes and looks each fingerprint up once', async () => {
    const f = fakeQueries();
    license(f, 'BIG', 10);
    const cache = createValidationCache({ queries: f.queries, notifications: fakeNotifications(), fullLoadNodes: 5 });
    for (let i = 0; i < 3; i++) {
      expect(await cache.find('BIG', 'BIG-fp7')).toMatchObject({ nodeId: 'BIG-node7' });
      expect(await cache.find('BIG', 'unknown')).toMatchObject({ nodeId: null });
    }
    expect(f.calls).toMatchObject({ licenseByKey: 1, nodesOf: 0, nodeIdOf: 2 });
  });
});

describe('validation in the application, on the database of this run', () => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.signIn('cache@example.com');
    userId = (await t.db.select().from(users).where(eq(users.email, 'cache@example.com')))[0]!.id;
  });
  afterAll(() => t.close());

  const validate = async (key: string, fingerprint?: string) =>
    (
      await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/validate`, payload: { fingerprint, nonce: 'n' } })
    ).json() as {
      code: string;
    };

  it('answers from memory, and sees a change no service made (a hand-written statement)', async () => {
    const svc = t.app.ctx.services.licenses;
    const { key, id } = await t.db.transaction((tx) =>
      svc.issue(tx, {
        userId,
        subscriptionId: null,
        maxNodes: 2,
        expiresAt: new Date(t.clock.now().getTime() + 30 * DAY),
        actor: 'test',
      }),
    );
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/licenses/${key}/activate`, payload: { fingerprint: 'fp' } })).statusCode,
    ).toBe(201);
    // This instance changed the license: it reads it from the database for a moment, then from memory.
    await vi.waitFor(
      async () => {
        const before = svc.cacheStats()!.hits;
        expect((await validate(key, 'fp')).code).toBe('VALID');
        expect(svc.cacheStats()!.hits).toBe(before + 1);
      },
      { timeout: 20_000, interval: 100 },
    );

    await t.db.update(licenses).set({ status: 'suspended' }).where(eq(licenses.id, id));
    await vi.waitFor(async () => expect((await validate(key, 'fp')).code).toBe('SUSPENDED'), { timeout: 20_000, interval: 20 });
    await t.db.update(licenses).set({ status: 'active' }).where(eq(licenses.id, id));
    await vi.waitFor(async () => expect((await validate(key, 'fp')).code).toBe('VALID'), { timeout: 20_000, interval: 20 });
    await t.db.delete(nodes).where(eq(nodes.licenseId, id));
    await vi.waitFor(async () => expect((await validate(key, 'fp')).code).toBe('NOT_ACTIVATED'), {
      timeout: 20_000,
      interval: 20,
    });
  });

  it('expires a license held in memory by the clock, without any notification', async () => {
    const svc = t.app.ctx.services.licenses;
    const { key } = await t.db.transaction((tx) =>
      svc.issue(tx, {
        userId,
        subscriptionId: null,
        maxNodes: 2,
        expiresAt: new Date(t.clock.now().getTime() + DAY),
        actor: 'test',
      }),
    );
    await vi.waitFor(
      async () => {
        const before = svc.cacheStats()!.hits;
        expect((await validate(key)).code).toBe('VALID');
        expect(svc.cacheStats()!.hits).toBe(before + 1);
      },
      { timeout: 20_000, interval: 100 },
    );
    t.clock.advance(DAY);
    expect((await validate(key)).code).toBe('EXPIRED');
  });
});
