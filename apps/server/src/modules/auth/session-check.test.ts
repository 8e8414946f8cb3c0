import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the web app’s start-up session check (GET /api/auth/session?optional=true)', () => {
  it('answers 204 without a body when nobody is signed in, or the cookie is forged', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/auth/session?optional=true' });
    const b = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session?optional=true',
      headers: { cookie: `portal_session=${'x'.repeat(43)}` },
    });
    expect([a.statusCode, b.statusCode]).toEqual([204, 204]);
    expect(a.body).toBe('');
  });

  it('answers the user like the plain check when signed in', async () => {
    const cookie = await t.signIn('optional@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/session?optional=true', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('optional@example.com');
  });

  it('keeps 401 for the plain check, and refuses another value of the flag', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session?optional=yes' })).statusCode).toBe(400);
  });
});
