import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, CONSOLE_ORIGIN, type ConsoleTestApp } from '../../test/console-helpers';

let t: ConsoleTestApp;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('Ada@Vendor.example', 'support');
});
afterAll(async () => t.close());

describe('staff sign-in by e-mailed link', () => {
  it('e-mails a link to the console (built from its public URL) and signs in once with it', async () => {
    const req = await t.consoleApp.inject({
      method: 'POST',
      url: '/api/console/auth/link',
      headers: { origin: CONSOLE_ORIGIN, host: 'evil.example' },
      payload: { email: 'ADA@vendor.example' },
    });
    expect(req.statusCode).toBe(202);
    const secret = await t.consoleLinkFor('ada@vendor.example');
    expect(secret).toBeDefined();

    const res = await t.consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      staff: { id: expect.any(String), email: 'ada@vendor.example', role: 'support' },
      secondFactor: { state: 'ok', required: false, methods: [] },
    });
    const cookie = res.cookies.find((c) => c.name === 'portal_console_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();

    const again = await t.consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    expect(again.statusCode).toBe(410);

    const me = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/auth/me',
      headers: { cookie: `portal_console_session=${cookie.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().staff.role).toBe('support');
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('answers 202 for an address that is not staff, and sends nothing', async () => {
    const before = t.mailer.messages.length;
    const res = await t.consoleApp.inject({
      method: 'POST',
      url: '/api/console/auth/link',
      payload: { email: 'customer@example.com' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: true });
    await t.app.ctx.services.outbox.kick();
    expect(t.mailer.messages.length).toBe(before);
  });

  it('refuses the exchange on a navigation or from another site, without using the link up', async () => {
    await t.consoleApp.inject({ method: 'POST', url: '/api/console/auth/link', payload: { email: 'ada@vendor.example' } });
    const secret = await t.consoleLinkFor('ada@vendor.example');
    const nav = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/auth/link/${secret}`,
      headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' },
    });
    expect(nav.statusCode).toBe(403);
    const cross = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/auth/link/${secret}`,
      headers: { origin: 'http://localhost:3000' },
    });
    expect(cross.statusCode).toBe(403);
    const ok = await t.consoleApp.inject({
      method: 'POST',
      url: `/api/console/auth/link/${secret}`,
      headers: { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('rejects a malformed link with 400 and an unknown one with 404', async () => {
    const bad = await t.consoleApp.inject({ method: 'POST', url: '/api/console/auth/link/short' });
    expect(bad.statusCode).toBe(400);
    const unknown = await t.consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${'a'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
  });

  it('ends the session at sign-out: the old cookie then answers 401', async () => {
    const cookie = await t.signInStaff('ada@vendor.example');
    const out = await t.consoleApp.inject({ method: 'POST', url: '/api/console/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'portal_console_session')?.value).toBe('');
    const me = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it('ends the sessions of a removed member at once, and their links stop working', async () => {
    const member = await t.addStaff('leaver@vendor.example', 'billing');
    const cookie = await t.signInStaff('leaver@vendor.example');
    await t.consoleApp.inject({ method: 'POST', url: '/api/console/auth/link', payload: { email: 'leaver@vendor.example' } });
    const secret = await t.consoleLinkFor('leaver@vendor.example');
    await t.consoleApp.consoleCtx.staff.remove(member.id, { id: null, email: 'vendor-cli' }, 'Left the company');
    const me = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    const res = await t.consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    expect(res.statusCode).toBe(410);
  });

  it('a link e-mailed before a member was removed does not work once they are added again', async () => {
    const member = await t.addStaff('returner@vendor.example', 'support');
    await t.consoleApp.inject({ method: 'POST', url: '/api/console/auth/link', payload: { email: 'returner@vendor.example' } });
    const secret = await t.consoleLinkFor('returner@vendor.example');
    expect(secret).toBeDefined();
    await t.consoleApp.consoleCtx.staff.remove(member.id, { id: null, email: 'vendor-cli' }, 'Left the company');
    await t.addStaff('returner@vendor.example', 'support');
    const res = await t.consoleApp.inject({ method: 'POST', url: `/api/console/auth/link/${secret}` });
    expect(res.statusCode).toBe(410);
    expect(res.cookies.find((c) => c.name === 'portal_console_session')).toBeUndefined();
    // A new link works.
    expect(await t.signInStaff('returner@vendor.example')).toMatch(/^portal_console_session=/);
  });

  it('records every sign-in in the staff audit log', async () => {
    t.clock.advance(1000);
    await t.signInStaff('ada@vendor.example');
    const { items } = await t.consoleApp.consoleCtx.staff.listAudit({ page: 1, size: 5 });
    expect(items[0]).toMatchObject({ action: 'staff_signed_in', staffEmail: 'ada@vendor.example', data: { method: 'link' } });
  });

  it('ends sessions after CONSOLE_SESSION_IDLE_MINUTES (60 by default) without a request', async () => {
    const cookie = await t.signInStaff('ada@vendor.example');
    const me = () => t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/me', headers: { cookie } });
    // Each request within the hour keeps the session going.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(50 * 60_000);
      expect((await me()).statusCode).toBe(200);
    }
    t.clock.advance(61 * 60_000);
    expect((await me()).statusCode).toBe(401);
  });
});
