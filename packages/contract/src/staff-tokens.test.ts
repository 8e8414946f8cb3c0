import { describe, expect, it } from 'vitest';
import {
  CONSOLE_ROUTES,
  CONSOLE_SESSION_ONLY,
  consoleMay,
  consoleTokenMay,
  CreateStaffTokenBodySchema,
  STAFF_ROLES,
  type ConsoleRouteId,
} from './index';

describe('staff API tokens in the route table', () => {
  it('open to a token what its role opens, except the member-only routes', () => {
    for (const id of Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[]) {
      for (const role of STAFF_ROLES) {
        expect(consoleTokenMay(role, id), `${role} ${id}`).toBe(consoleMay(role, id) && !CONSOLE_SESSION_ONLY.includes(id));
      }
    }
  });

  it('keep every staff, token and second-factor route to sessions', () => {
    const memberOnly = (Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[]).filter(
      (id) =>
        CONSOLE_ROUTES[id].path.startsWith('/api/console/staff') ||
        CONSOLE_ROUTES[id].path.startsWith('/api/console/tokens') ||
        CONSOLE_ROUTES[id].path.startsWith('/api/console/auth/factors') ||
        CONSOLE_ROUTES[id].path.startsWith('/api/console/auth/second-factor') ||
        CONSOLE_ROUTES[id].path.startsWith('/api/console/auth/recovery-codes'),
    );
    expect(memberOnly.filter((id) => !CONSOLE_SESSION_ONLY.includes(id))).toEqual([]);
  });
});

describe('CreateStaffTokenBodySchema', () => {
  const ok = { name: 'CRM sync', role: 'support', expiresInDays: 30, reason: 'Nightly sync' };
  it('takes a name, one role, 1 to 365 days and a reason', () => {
    expect(CreateStaffTokenBodySchema.safeParse(ok).success).toBe(true);
    expect(CreateStaffTokenBodySchema.safeParse({ ...ok, expiresInDays: 365 }).success).toBe(true);
  });
  it.each([
    [{ ...ok, expiresInDays: 0 }],
    [{ ...ok, expiresInDays: 366 }],
    [{ ...ok, expiresInDays: 1.5 }],
    [{ ...ok, expiresInDays: null }],
    [{ ...ok, role: 'admin' }],
    [{ ...ok, reason: ' ' }],
    [{ ...ok, name: '' }],
    [{ ...ok, extra: true }],
  ])('refuses %j', (body) => {
    expect(CreateStaffTokenBodySchema.safeParse(body).success).toBe(false);
  });
});
