import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { consoleFixtures, type ConsoleFixtures } from '../../test/console/fixtures';

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let support: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('help@vendor.example', 'support');
  support = await t.signInStaff('help@vendor.example');
  fx = await consoleFixtures(t);
  await t.app.inject({
    method: 'PATCH',
    url: '/api/users/profile',
    headers: { cookie: fx.a.cookie },
    payload: { fname: 'Grace', lname: 'Hopper', company: 'Navy Labs 100%' },
  });
});
afterAll(async () => t.close());

async function searchAnswer(q: string): Promise<{ items: SearchResult[]; more: boolean }> {
  const res = await t.consoleApp.inject({
    method: 'GET',
    url: `/api/console/search?q=${encodeURIComponent(q)}`,
    headers: { cookie: support },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const search = async (q: string) => (await searchAnswer(q)).items;

describe('search', () => {
  it('finds the customer by e-mail, name and company, in any case', async () => {
    for (const q of [fx.a.email.slice(3, 14).toUpperCase(), 'grace hop', 'navy labs']) {
      const hits = await search(q);
      expect(hits, q).toContainEqual(expect.objectContaining({ kind: 'customer', userId: fx.userId }));
    }
    expect((await search('100%')).map((h) => h.userId)).toEqual([fx.userId]);
    expect(await search('nobody-has-this')).toEqual([]);
  });

  it('finds a license by its whole key or a part, a node by fingerprint or hostname, a subscription and an invoice', async () => {
    const key = fx.a.ids.licenseKey!;
    expect(await search(key)).toContainEqual(expect.objectContaining({ kind: 'license', label: key, subjectId: key }));
    expect(await search(key.slice(6, 14).toLowerCase())).toContainEqual(expect.objectContaining({ kind: 'license', label: key }));
    expect(await search(fx.a.ids.fingerprint!)).toContainEqual(
      expect.objectContaining({ kind: 'node', userId: fx.userId, subjectId: fx.a.ids.nodeId }),
    );
    expect(await search('node-1')).toContainEqual(expect.objectContaining({ kind: 'node', userId: fx.userId }));
    expect(await search(fx.a.ids.stripeId!)).toContainEqual(
      expect.objectContaining({ kind: 'subscription', userId: fx.userId, label: fx.a.ids.stripeId }),
    );
    const page = (
      await t.consoleApp.inject({ method: 'GET', url: `/api/console/customers/${fx.userId}`, headers: { cookie: support } })
    ).json();
    const number = page.subscriptions[0].invoices[0].number as string;
    expect(await search(number)).toContainEqual(expect.objectContaining({ kind: 'invoice', userId: fx.userId }));
  });

  it('ranks an exact e-mail first, then what starts with the text; substrings when nothing else matches', async () => {
    await t.signIn('rank-me@example.com');
    await t.signIn('rank-me@example.com.au');
    await t.signIn('frank-me@example.com');
    const exact = await search('Rank-Me@example.com');
    expect(exact.filter((h) => h.kind === 'customer').map((h) => [h.customer.match(/<(.*)>/)?.[1], h.match])).toEqual([
      ['rank-me@example.com', 'exact'],
      ['rank-me@example.com.au', 'prefix'],
    ]);
    expect(exact[0]).toMatchObject({ kind: 'customer', match: 'exact' });
    const inside = await search('ank-me@example');
    expect(inside.filter((h) => h.kind === 'customer')).toHaveLength(3);
    expect(inside.every((h) => h.match === 'substring')).toBe(true);
  });

  it('ranks an exact license key and invoice number above everything else', async () => {
    const key = fx.a.ids.licenseKey!;
    expect((await search(key.toLowerCase()))[0]).toMatchObject({ kind: 'license', label: key, match: 'exact' });
    const page = (
      await t.consoleApp.inject({ method: 'GET', url: `/api/console/customers/${fx.userId}`, headers: { cookie: support } })
    ).json();
    const number = page.subscriptions[0].invoices[0].number as string;
    expect((await search(number))[0]).toMatchObject({ kind: 'invoice', label: `Invoice ${number}`, match: 'exact' });
  });

  it('answers at most 5 of a kind and says when there are more', async () => {
    for (let k = 0; k < 6; k++) {
      const cookie = await t.signIn(`many-${k}@example.com`);
      await t.app.inject({
        method: 'PATCH',
        url: '/api/users/profile',
        headers: { cookie },
        payload: { fname: 'Many', lname: `Of ${k}`, company: `Plentiful ${k}` },
      });
    }
    const answer = await searchAnswer('plentiful');
    expect(answer.items.filter((h) => h.kind === 'customer')).toHaveLength(5);
    expect(answer.more).toBe(true);
    expect((await searchAnswer('plentiful 3')).more).toBe(false);
  });

  it('refuses a search of fewer than 2 characters with 400', async () => {
    const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/search?q=%20a%20', headers: { cookie: support } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Type at least 2 characters');
  });

  it('is answered from the trigram indexes', async () => {
    // A tiny table is scanned whatever the indexes; without sequential scans the plan shows they serve ILIKE.
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = (await tx.execute(sql`explain select id from users where email ilike '%race%'`)) as unknown as {
        rows: Array<Record<string, string>>;
      };
      return res.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('users_email_trgm_idx');
  });
});

describe('the customer page', () => {
  it('shows profile, subscriptions with invoices, licenses with node usage, nodes, cards (no numbers), activity and sign-ins', async () => {
    const res = await t.consoleApp.inject({
      method: 'GET',
      url: `/api/console/customers/${fx.userId}`,
      headers: { cookie: support },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.profile).toMatchObject({ id: fx.userId, email: fx.a.email, fname: 'Grace', company: 'Navy Labs 100%' });
    expect(page.subscriptions[0]).toMatchObject({ subscriptionId: fx.a.ids.stripeId, provider: 'local', status: 'active' });
    expect(page.subscriptions[0].invoices[0]).toMatchObject({ status: 'paid' });
    expect(page.licenses).toContainEqual(
      expect.objectContaining({ licenseKey: fx.a.ids.licenseKey, activeNodes: 1, maxNodes: 2 }),
    );
    expect(page.nodes).toContainEqual(expect.objectContaining({ id: fx.a.ids.nodeId, hostname: 'node-1' }));
    expect(page.cards).toHaveLength(2);
    expect(Object.keys(page.cards[0]).sort()).toEqual(['brand', 'expMonth', 'expYear', 'isDefault', 'last4']);
    expect(page.activity.length).toBeGreaterThan(0);
    expect(page.signIns[0]).toMatchObject({ method: 'link', active: true });
  });

  it('answers 404 for an unknown customer and 400 for a malformed id', async () => {
    const unknown = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/customers/00000000-0000-4000-8000-000000000000',
      headers: { cookie: support },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.consoleApp.inject({ method: 'GET', url: '/api/console/customers/42', headers: { cookie: support } });
    expect(bad.statusCode).toBe(400);
  });
});
