import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const userRow = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0]!;
const eventCount = async () => (await t.db.select({ n: count() }).from(auditEvents))[0]!.n;
const patch = (cookie: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: '/api/users/profile', headers: cookie ? { cookie } : {}, payload: payload as object });

describe('PATCH /api/users/profile', () => {
  it('answers 401 when signed out, even with a bad body', async () => {
    for (const payload of [{ fname: 'A', lname: 'B' }, { fname: '' }]) {
      const res = await patch(undefined, payload);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('changes the trimmed name and company and records it in the activity log', async () => {
    const cookie = await t.signIn('grace@example.com');
    // Events of one instant have no defined order: let time pass, as it does between two requests.
    t.clock.advance(1000);
    const res = await patch(cookie, { fname: ' Grace ', lname: 'Hopper', company: ' Navy ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: 'grace@example.com',
      fname: 'Grace',
      lname: 'Hopper',
      company: 'Navy',
      onboarded: true,
    });
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user).toMatchObject({ fname: 'Grace', lname: 'Hopper', company: 'Navy' });
    const activity = await t.app.inject({ method: 'GET', url: '/api/users/activity', headers: { cookie } });
    expect(activity.json().items[0]).toMatchObject({
      action: 'profile_updated',
      summary: 'Updated the profile (first name, last name, company)',
    });
  });

  it('keeps the company when it is left out, clears it when empty', async () => {
    const cookie = await t.signIn('keep@example.com');
    await patch(cookie, { fname: 'K', lname: 'P', company: 'Acme' });
    expect((await patch(cookie, { fname: 'Kay', lname: 'P' })).json().user).toMatchObject({ fname: 'Kay', company: 'Acme' });
    expect((await patch(cookie, { fname: 'Kay', lname: 'P', company: '  ' })).json().user.company).toBeNull();
    expect((await userRow('keep@example.com')).company).toBeNull();
  });

  it('writes nothing when nothing changes', async () => {
    const cookie = await t.signIn('same@example.com');
    await patch(cookie, { fname: 'Same', lname: 'Name' });
    const before = await eventCount();
    const res = await patch(cookie, { fname: 'Same ', lname: ' Name' });
    expect(res.statusCode).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it.each([
    [{ fname: '', lname: 'B' }, 'Enter your first name'],
    [{ fname: '   ', lname: 'B' }, 'Enter your first name'],
    [{ fname: 'A', lname: '' }, 'Enter your last name'],
    [{ fname: 'A' }, 'Enter your last name'],
    [{ fname: 'A'.repeat(101), lname: 'B' }, 'Your first name can be at most 100 characters'],
    [{ fname: 'A', lname: 'B'.repeat(101) }, 'Your last name can be at most 100 characters'],
    [{ fname: 'A', lname: 'B', company: 'C'.repeat(101) }, 'The company name can be at most 100 characters'],
    [{ fname: 'A', lname: 'B', email: 'new@example.com' }, 'Unknown field in the body: email'],
    [{ fname: 'A', lname: 'B', onboarded: false }, 'Unknown field in the body: onboarded'],
    [{ fname: 1, lname: 'B' }, 'Enter your first name'],
  ])('refuses %j with a clear message and changes nothing', async (payload, message) => {
    const email = `bad${Math.random().toString(36).slice(2)}@example.com`;
    const cookie = await t.signIn(email);
    const before = { row: await userRow(email), events: await eventCount() };
    const res = await patch(cookie, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    expect(await userRow(email)).toEqual(before.row);
    expect(await eventCount()).toBe(before.events);
  });

  it('refuses an oversized body with 413', async () => {
    const cookie = await t.signIn('huge@example.com');
    const res = await patch(cookie, { fname: 'A', lname: 'B', company: 'C'.repeat(20_000) });
    expect(res.statusCode).toBe(413);
  });

  it('only changes the signed-in user', async () => {
    const a = await t.signIn('alpha@example.com');
    await t.signIn('beta@example.com');
    const before = await userRow('beta@example.com');
    await patch(a, { fname: 'Alpha', lname: 'A' });
    expect(await userRow('beta@example.com')).toEqual(before);
  });
});

describe('GET /api/users/activity', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/activity?page=0' });
    expect(res.statusCode).toBe(401);
  });

  it("lists the user's own events, newest first, a page at a time", async () => {
    const cookie = await t.signIn('log@example.com', { onboard: false });
    await t.signIn('log-other@example.com');
    t.clock.advance(1000);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/onboarding',
      headers: { cookie },
      payload: { fname: 'Zero', lname: 'Log' },
    });
    for (const fname of ['One', 'Two', 'Three']) {
      t.clock.advance(1000);
      await patch(cookie, { fname, lname: 'Log' });
    }
    const all = await t.app.inject({ method: 'GET', url: '/api/users/activity', headers: { cookie } });
    expect(all.statusCode).toBe(200);
    const body = all.json();
    // Signed in, onboarded, three profile changes.
    expect(body).toMatchObject({ page: 1, size: 20, total: 5 });
    expect(body.items.map((i: { action: string }) => i.action)).toEqual([
      'profile_updated',
      'profile_updated',
      'profile_updated',
      'onboarded',
      'signed_in',
    ]);
    const times = body.items.map((i: { createdAt: string }) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const page2 = await t.app.inject({ method: 'GET', url: '/api/users/activity?page=2&size=2', headers: { cookie } });
    expect(page2.json()).toMatchObject({ page: 2, size: 2, total: 5 });
    expect(page2.json().items).toEqual(body.items.slice(2, 4));
    const beyond = await t.app.inject({ method: 'GET', url: '/api/users/activity?page=9&size=2', headers: { cookie } });
    expect(beyond.json()).toMatchObject({ items: [], total: 5 });
  });

  it.each([
    ['page=0', 'page must be at least 1'],
    ['size=0', 'size must be at least 1'],
    ['size=101', 'size must be at most 100'],
    ['page=x', 'page must be a whole number'],
    ['sort=asc', 'Unknown field in the query: sort'],
  ])('refuses ?%s with 400', async (query, message) => {
    const cookie = await t.signIn('paging@example.com');
    const res = await t.app.inject({ method: 'GET', url: `/api/users/activity?${query}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });
});
