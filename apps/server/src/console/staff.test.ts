import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { buildConsoleApp } from './console-app';

let t: ConsoleTestApp;
let owner: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('owner@vendor.example', 'owner');
  owner = await t.signInStaff('owner@vendor.example');
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.consoleApp.inject({ method, url, headers: { cookie: owner }, ...(payload !== undefined ? { payload } : {}) });

describe('owners manage the staff', () => {
  it('adds a member, changes the role, removes them, and the audit log says who did it', async () => {
    t.clock.advance(1000);
    const added = await call('POST', '/api/console/staff', {
      email: ' Bob@Vendor.example ',
      role: 'support',
      reason: 'New hire',
    });
    expect(added.statusCode).toBe(201);
    const bob = added.json().staff;
    expect(bob).toMatchObject({ email: 'bob@vendor.example', role: 'support', lastSignInAt: null });

    expect(
      (await call('POST', '/api/console/staff', { email: 'bob@vendor.example', role: 'billing', reason: 'x' })).statusCode,
    ).toBe(409);
    t.clock.advance(1000);
    const changed = await call('PATCH', `/api/console/staff/${bob.id}`, { role: 'billing', reason: 'Moved to accounts' });
    expect(changed.json().staff.role).toBe('billing');

    const list = await call('GET', '/api/console/staff');
    expect(list.json().items.map((s: { email: string }) => s.email)).toEqual(['bob@vendor.example', 'owner@vendor.example']);

    t.clock.advance(1000);
    expect((await call('DELETE', `/api/console/staff/${bob.id}`, { reason: 'Left the company' })).statusCode).toBe(204);
    expect((await call('DELETE', `/api/console/staff/${bob.id}`, { reason: 'Left the company' })).statusCode).toBe(404);

    const audit = await call('GET', '/api/console/audit?size=10');
    expect(
      audit
        .json()
        .items.slice(0, 3)
        .map((e: { action: string; staffEmail: string; subject: string; reason: string }) => [
          e.action,
          e.staffEmail,
          e.subject,
          e.reason,
        ]),
    ).toEqual([
      ['staff_removed', 'owner@vendor.example', 'bob@vendor.example', 'Left the company'],
      ['staff_role_changed', 'owner@vendor.example', 'bob@vendor.example', 'Moved to accounts'],
      ['staff_added', 'owner@vendor.example', 'bob@vendor.example', 'New hire'],
    ]);
  });

  it('never leaves the install without an owner', async () => {
    const me = (await call('GET', '/api/console/auth/me')).json().staff;
    const demote = await call('PATCH', `/api/console/staff/${me.id}`, { role: 'support', reason: 'x' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toContain('last owner');
    expect((await call('DELETE', `/api/console/staff/${me.id}`, { reason: 'x' })).statusCode).toBe(409);

    const second = (await call('POST', '/api/console/staff', { email: 'co@vendor.example', role: 'owner', reason: 'x' })).json()
      .staff;
    expect((await call('PATCH', `/api/console/staff/${second.id}`, { role: 'support', reason: 'x' })).statusCode).toBe(200);
  });

  it('refuses bad input with 400, changing nothing', async () => {
    const before = (await call('GET', '/api/console/staff')).json().items;
    for (const body of [
      { email: 'x', role: 'owner' },
      { email: 'x@y.example', role: 'admin' },
      { email: 'x@y.example' },
      { email: 'x@y.example', role: 'owner', reason: 'x', extra: 1 },
      { email: 'x@y.example', role: 'owner' },
      { email: 'x@y.example', role: 'owner', reason: '  ' },
    ]) {
      expect((await call('POST', '/api/console/staff', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', '/api/console/staff/not-a-uuid', { role: 'owner', reason: 'x' })).statusCode).toBe(400);
    const someone = await t.addStaff('kept@vendor.example', 'support');
    // Every change says why: without a reason nothing happens.
    expect((await call('PATCH', `/api/console/staff/${someone.id}`, { role: 'owner' })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/console/staff/${someone.id}`)).statusCode).toBe(400);
    const kept = (await call('GET', '/api/console/staff')).json().items.find((m: { id: string }) => m.id === someone.id);
    expect(kept).toMatchObject({ email: 'kept@vendor.example', role: 'support' });
    await t.consoleApp.consoleCtx.staff.remove(someone.id, { id: null, email: 'vendor-cli' }, 'Test clean-up');
    expect((await call('GET', '/api/console/staff')).json().items).toEqual(before);
  });

  it('records every change in the same transaction as the change: when the audit row fails, nothing changes', async () => {
    const staff = t.consoleApp.consoleCtx.staff;
    const before = await staff.list();
    // A reason the audit table cannot store (NUL) makes its insert fail after the change was made.
    await expect(staff.add('nul@vendor.example', 'support', { id: null, email: 'vendor-cli' }, 'a\u0000b')).rejects.toThrow();
    const someone = before.find((m) => m.role !== 'owner') ?? before[0]!;
    await expect(
      staff.setRole(
        someone.id,
        someone.role === 'billing' ? 'support' : 'billing',
        { id: null, email: 'vendor-cli' },
        'a\u0000b',
      ),
    ).rejects.toThrow();
    expect(await staff.list()).toEqual(before);
  });
});

describe('CONSOLE_BOOTSTRAP_EMAIL', () => {
  it('makes the first owner only while there is no staff', async () => {
    expect(await t.consoleApp.consoleCtx.staff.bootstrap('late@vendor.example')).toBe(false);
    const config = { ...t.config, console: { ...t.config.console, bootstrapEmail: 'late@vendor.example' } };
    const other = await buildConsoleApp(config, {
      services: t.portal.ctx.services,
      limitLinkAddress: t.portal.ctx.limitLinkAddress,
      db: t.db,
      clock: t.clock,
      logger: false,
      serveWeb: false,
    });
    await other.ready();
    await other.close();
    const emails = (await t.consoleApp.consoleCtx.staff.list()).map((s) => s.email);
    expect(emails).not.toContain('late@vendor.example');
  });
});
