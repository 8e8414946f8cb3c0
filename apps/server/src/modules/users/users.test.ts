import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('POST /api/users/onboarding', () => {
  it('answers 401 when signed out', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/onboarding', payload: { fname: 'A', lname: 'B' } });
    expect(res.statusCode).toBe(401);
  });

  it('stores the trimmed name and company and marks the user onboarded', async () => {
    const cookie = await t.signIn('ada@acme.example', { onboard: false });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/onboarding',
      headers: { cookie },
      payload: { fname: '  Ada ', lname: 'Lovelace', company: ' Acme ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ fname: 'Ada', lname: 'Lovelace', company: 'Acme', onboarded: true });
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user.onboarded).toBe(true);
  });

  it.each([
    [{ fname: '', lname: 'B' }, 'Enter your first name'],
    [{ fname: '   ', lname: 'B' }, 'Enter your first name'],
    [{ fname: 'A' }, 'Enter your last name'],
    [{ fname: 'A'.repeat(101), lname: 'B' }, 'Your first name can be at most 100 characters'],
    [{ fname: 'A', lname: 'B', company: 'C'.repeat(101) }, 'The company name can be at most 100 characters'],
    [{ fname: 'A', lname: 'B', role: 'admin' }, 'Unknown field in the body: role'],
    [{ fname: 1, lname: 'B' }, 'Enter your first name'],
  ])('refuses %j with a clear message and changes nothing', async (payload, message) => {
    const cookie = await t.signIn(`bad${Math.random().toString(36).slice(2)}@example.com`, { onboard: false });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/onboarding', headers: { cookie }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user).toMatchObject({ fname: '', lname: '', onboarded: false });
  });

  it('only changes the signed-in user', async () => {
    const a = await t.signIn('one@example.com', { onboard: false });
    await t.signIn('two@example.com', { onboard: false });
    await t.app.inject({
      method: 'POST',
      url: '/api/users/onboarding',
      headers: { cookie: a },
      payload: { fname: 'One', lname: 'X' },
    });
    const [two] = await t.db.select().from(users).where(eq(users.email, 'two@example.com'));
    expect(two).toMatchObject({ fname: '', onboarded: false });
  });
});
