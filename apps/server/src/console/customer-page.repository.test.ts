import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, idOf, type ConsoleFixtures } from '../../test/console/fixtures';
import { signIn } from '../../test/fuzz/customers';
import { customerPageRepository } from './customer-page.repository';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let support: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('nodes-help@vendor.example', 'support');
  support = await t.signInStaff('nodes-help@vendor.example');
  fx = await consoleFixtures(t);
});
afterAll(async () => t.close());

/** A node written as it is stored, activated and last seen when the test says. */
const addNode = (key: string, fingerprint: string, activatedAt: string, lastSeenAt = activatedAt) =>
  t.db.execute(sql`insert into nodes (license_id, fingerprint, hostname, activated_at, last_seen_at)
                   select id, ${fingerprint}, null, ${activatedAt}::timestamptz, ${lastSeenAt}::timestamptz
                     from licenses where key = ${key}`);

describe('customerPageRepository.nodes', () => {
  it('answers the customer’s most recently activated nodes across all their licenses, newest first, at most the limit', async () => {
    const keys = [await fx.license(), await fx.license(), await fx.license()];
    // After the fixture's own node was activated (now).
    const base = t.clock.now().getTime() + 86_400_000;
    const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
    // Two licenses' nodes activated in turn (one even minutes, the other odd ones), and a third
    // license with a few activated last of all: the newest 200 come from all three. How recently a
    // node was seen does not order them: the oldest-activated were seen last.
    for (let m = 0; m < 300; m++) await addNode(keys[m % 2]!, `turn-${m}`, at(m), at(5000 - m));
    for (let m = 0; m < 5; m++) await addNode(keys[2]!, `last-${m}`, at(1000 + m), at(1000 + m));

    const expected = await rowsOf<{ id: string }>(
      t.db,
      sql`select n.id from nodes n join licenses l on l.id = n.license_id
           where l.user_id = ${fx.userId} order by n.activated_at desc, n.id desc limit 200`,
    );
    const got = await customerPageRepository.nodes(t.db, fx.userId, 200);
    expect(got).toHaveLength(200);
    expect(got.map((r) => r.node.id)).toEqual(expected.map((r) => r.id));
    expect(got[0]).toMatchObject({ key: keys[2], node: { fingerprint: 'last-4', hostname: null } });
    expect(got[0]!.node.activatedAt).toEqual(new Date(at(1004)));
    expect(got[0]!.node.lastSeenAt).toEqual(new Date(at(1004)));
    expect(got[5]!.node.fingerprint).toBe('turn-299');
    expect(got[5]!.node.lastSeenAt).toEqual(new Date(at(4701)));
    expect(got[199]!.node.fingerprint).toBe('turn-105');
    expect(new Set(got.map((r) => r.key))).toEqual(new Set(keys));

    // A smaller limit is the head of the same order.
    const head = await customerPageRepository.nodes(t.db, fx.userId, 7);
    expect(head.map((r) => r.node.fingerprint)).toEqual([
      'last-4',
      'last-3',
      'last-2',
      'last-1',
      'last-0',
      'turn-299',
      'turn-298',
    ]);
  });

  it('orders nodes activated at the same moment by id, the order the index keeps', async () => {
    const c = await signIn(t, `console-same-${randomUUID().slice(0, 8)}@example.com`);
    const userId = await idOf(t, c.email);
    const issue = () =>
      t.app.ctx.services.licenses.issueForEmail({
        email: c.email,
        maxNodes: 3,
        expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
        actor: 'test',
      });
    const [one, two] = [await issue(), await issue()];
    const moment = new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString();
    for (let i = 0; i < 4; i++) await addNode(i % 2 ? one.key : two.key, `same-${i}`, moment);

    const got = await customerPageRepository.nodes(t.db, userId, 10);
    expect(got).toHaveLength(4);
    const ids = got.map((r) => r.node.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('never answers another customer’s nodes, however recently activated; a customer without nodes gets none', async () => {
    const other = await signIn(t, `console-other-${randomUUID().slice(0, 8)}@example.com`);
    const otherId = await idOf(t, other.email);
    const lonely = await signIn(t, `console-none-${randomUUID().slice(0, 8)}@example.com`);
    const lonelyId = await idOf(t, lonely.email);
    const { key } = await t.app.ctx.services.licenses.issueForEmail({
      email: other.email,
      maxNodes: 3,
      expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      actor: 'test',
    });
    // Newer than anything customer A has.
    const later = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString();
    for (let i = 0; i < 3; i++) await addNode(key, `other-${i}`, later);

    const mine = await customerPageRepository.nodes(t.db, fx.userId, 500);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((r) => r.key === key || r.node.fingerprint.startsWith('other-'))).toEqual([]);
    const own = await rowsOf<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from nodes n join licenses l on l.id = n.license_id where l.user_id = ${fx.userId}`,
    );
    expect(mine).toHaveLength(Math.min(500, own[0]!.count));

    const theirs = await customerPageRepository.nodes(t.db, otherId, 500);
    expect(theirs.map((r) => r.node.fingerprint).sort()).toEqual(['other-0', 'other-1', 'other-2']);
    expect(new Set(theirs.map((r) => r.key))).toEqual(new Set([key]));
    expect(await customerPageRepository.nodes(t.db, lonelyId, 200)).toEqual([]);
  });
});

describe('GET /api/console/customers/:userId, the nodes', () => {
  it('lists the customer’s 50 newest-activated nodes of all their licenses, never another customer’s; the licenses count every node', async () => {
    const c = await signIn(t, `console-many-${randomUUID().slice(0, 8)}@example.com`);
    const userId = await idOf(t, c.email);
    const issue = (email: string) =>
      t.app.ctx.services.licenses.issueForEmail({
        email,
        maxNodes: 500,
        expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
        actor: 'test',
      });
    const [one, two] = [await issue(c.email), await issue(c.email)];
    const theirs = await issue(fx.a.email);
    const base = t.clock.now().getTime() + 86_400_000;
    const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
    // 250 nodes over two licenses, activated in turn; the oldest-activated were seen last.
    await t.db.execute(sql`insert into nodes (license_id, fingerprint, hostname, activated_at, last_seen_at)
      select l.id, 'many-' || m, 'host-' || m, ${at(0)}::timestamptz + m * interval '1 minute',
             ${at(5000)}::timestamptz - m * interval '1 minute'
        from generate_series(0, 249) m
        join licenses l on l.key = case when m % 2 = 0 then ${one.key} else ${two.key} end`);
    await t.db.execute(sql`update licenses set active_nodes = 125 where key in (${one.key}, ${two.key})`);
    // Another customer's nodes, activated after all of them.
    for (let i = 0; i < 3; i++) await addNode(theirs.key, `theirs-${i}`, at(9000 + i));

    const res = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/customers/${userId}`,
      headers: { cookie: support },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{
      nodes: { fingerprint: string; licenseKey: string; activatedAt: string }[];
      licenses: { activeNodes: number }[];
    }>();
    expect(page.nodes).toHaveLength(50);
    expect(page.nodes.map((n) => n.fingerprint)).toEqual(Array.from({ length: 50 }, (_, k) => `many-${249 - k}`));
    expect(page.nodes[0]!.activatedAt).toBe(at(249));
    expect(new Set(page.nodes.map((n) => n.licenseKey))).toEqual(new Set([one.key, two.key]));
    expect(page.licenses.reduce((sum, l) => sum + l.activeNodes, 0)).toBe(250);
  });

  it('answers 404 for a customer who does not exist and 400 for an id that is not one', async () => {
    const missing = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/customers/${randomUUID()}`,
      headers: { cookie: support },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/customers/not-an-id',
      headers: { cookie: support },
    });
    expect(bad.statusCode).toBe(400);
  });
});
