import { describe, expect, it } from 'vitest';
import { CONSOLE_API, CONSOLE_ROUTES, consoleMay, consoleOpenIn, consolePath, type ConsoleRouteId } from './index';

describe('console routes', () => {
  it('puts every route under the console prefix, once', () => {
    const seen = new Set<string>();
    for (const route of Object.values(CONSOLE_ROUTES)) {
      expect(route.path.startsWith(`${CONSOLE_API}/`)).toBe(true);
      const key = `${route.method} ${route.path}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
  });

  it('lets owners do everything and keeps staff management and deletion to owners', () => {
    for (const id of Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[]) expect(consoleMay('owner', id)).toBe(true);
    for (const role of ['support', 'billing'] as const) {
      for (const id of ['listStaff', 'addStaff', 'updateStaff', 'removeStaff', 'deleteCustomer'] as const) {
        expect(consoleMay(role, id)).toBe(false);
      }
      expect(consoleMay(role, 'getCustomer')).toBe(true);
    }
    expect(consoleMay('support', 'suspendLicense')).toBe(true);
    expect(consoleMay('support', 'cancelNow')).toBe(false);
    expect(consoleMay('billing', 'cancelNow')).toBe(true);
    expect(consoleMay('support', 'retryPayment')).toBe(false);
    expect(consoleMay('billing', 'retryPayment')).toBe(true);
    expect(consoleMay('owner', 'retryPayment')).toBe(true);
    expect(consoleMay('billing', 'releaseNode')).toBe(false);
  });

  it('opens a session short of its second factor only to the steps that complete it', () => {
    const ids = Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[];
    const open = (state: 'verify' | 'enroll') =>
      ids.filter((id) => CONSOLE_ROUTES[id].roles !== null && consoleOpenIn(state, id)).sort();
    expect(open('verify')).toEqual(['checkCode', 'checkPasskey', 'me', 'startPasskeyCheck']);
    expect(open('enroll')).toEqual([
      'addPasskey',
      'addTotp',
      'listFactors',
      'me',
      'startPasskeyRegistration',
      'startTotpEnrollment',
    ]);
    for (const id of ids) expect(consoleOpenIn('ok', id)).toBe(true);
    // Sign-in itself needs no session, so no factor either.
    expect(consoleOpenIn('verify', 'signOut')).toBe(true);
    expect(consoleOpenIn('enroll', 'refundInvoice')).toBe(false);
  });

  it('fills path parameters, encoded', () => {
    expect(consolePath('releaseNode', { licenseKey: 'A-B', nodeId: 'x/y' })).toBe(
      '/api/console/licenses/A-B/nodes/x%2Fy/release',
    );
    expect(() => consolePath('getCustomer')).toThrow(/userId/);
  });
});
