import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, consoleOpenIn, type ConsoleRouteId, type SecondFactorState } from '@portal/contract';
import { staffFactors } from '../../src/db/schema/index';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { liveRoutes, type LiveRoute } from '../fuzz/route-list';

/**
 * The second factor with the shipped default, CONSOLE_REQUIRE_SECOND_FACTOR=owner,billing: what a
 * session short of its factor may call (every route and method the listener serves), adding an
 * authenticator app, checking its codes (each once), recovery codes (each once), attempts limited,
 * an owner's reset, and sessions that end when idle.
 */

let t: ConsoleTestApp;
let served: LiveRoute[];
const OWNER = 'first-owner@vendor.example';

beforeAll(async () => {
  t = await buildConsoleTestApp({ CONSOLE_REQUIRE_SECOND_FACTOR: 'owner,billing' });
  served = liveRoutes(t.consoleApp).filter((r) => r.url.startsWith('/api/console/'));
  await t.addStaff(OWNER, 'owner');
});
afterAll(() => t?.close());
// Attempts at a second factor are limited per minute: each test starts in a minute of its own.
beforeEach(() => t.clock.advance(61_000));

const call = (cookie: string, method: string, url: string, payload?: object) =>
  t.consoleApp.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const me = async (cookie: string) => (await call(cookie, 'GET', '/api/console/auth/me')).json();

/** The current code of an authenticator app with `secret`, at the test's clock. */
const codeOf = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
/** Moves the clock to the start of the next 30-second step (a new code). */
function nextStep() {
  const ms = t.clock.now().getTime();
  t.clock.set(new Date((Math.floor(ms / 30_000) + 1) * 30_000 + 1000));
}

/** Adds an authenticator app to the session's member: its secret and the recovery codes. */
async function addTotp(cookie: string, label = 'Phone') {
  const start = await call(cookie, 'POST', '/api/console/auth/factors/totp/options');
  expect(start.statusCode, start.body).toBe(200);
  const { secret, uri } = start.json() as { secret: string; uri: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const added = await call(cookie, 'POST', '/api/console/auth/factors/totp', { label, code: await codeOf(secret) });
  expect(added.statusCode, added.body).toBe(201);
  return { secret, recoveryCodes: added.json().recoveryCodes as string[] | null };
}

/** Every route behind a role, with each method served: the guard's answer for a session in `state`. */
async function expectGuarded(cookie: string, state: Exclude<SecondFactorState, 'ok'>) {
  const ids = Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[];
  let refused = 0;
  for (const r of served) {
    const method = r.method === 'HEAD' ? 'GET' : r.method;
    const id = ids.find((i) => CONSOLE_ROUTES[i].method === method && CONSOLE_ROUTES[i].path === r.url)!;
    if (CONSOLE_ROUTES[id].roles === null) continue;
    const url = r.url.replace(/:([A-Za-z]+)/g, '00000000-0000-4000-8000-000000000000');
    const res = await call(cookie, r.method, url, r.method === 'GET' || r.method === 'HEAD' ? undefined : { reason: 'x' });
    if (consoleOpenIn(state, id)) {
      expect(res.statusCode, `${r.method} ${r.url} is open to ${state}`).not.toBe(403);
    } else {
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      if (r.method !== 'HEAD') expect(res.json().code, `${r.method} ${r.url}`).toBe('SECOND_FACTOR_REQUIRED');
      refused++;
    }
  }
  expect(refused).toBeGreaterThan(30);
}

describe('a role that requires a second factor', () => {
  it('cannot act without one: every route but enrolment answers 403 SECOND_FACTOR_REQUIRED, for every method served', async () => {
    const owner = await t.signInStaff(OWNER);
    expect(await me(owner)).toMatchObject({ secondFactor: { state: 'enroll', required: true, methods: [] } });
    await expectGuarded(owner, 'enroll');
    const refused = await call(owner, 'GET', '/api/console/staff');
    expect(refused.json().message).toContain('needs a second factor');
  });

  it('a role that does not require one may act, and may still add one', async () => {
    await t.addStaff('helper@vendor.example', 'support');
    const helper = await t.signInStaff('helper@vendor.example');
    expect(await me(helper)).toMatchObject({ secondFactor: { state: 'ok', required: false } });
    expect((await call(helper, 'GET', '/api/console/overview')).statusCode).toBe(200);
  });
});

let secret: string;
let recoveryCodes: string[];

describe('authenticator app (TOTP)', () => {
  it('is added with a code from the app; the secret is stored sealed and never shown again; 10 recovery codes once', async () => {
    const owner = await t.signInStaff(OWNER);
    const start = await call(owner, 'POST', '/api/console/auth/factors/totp/options');
    secret = start.json().secret;
    const wrong = await call(owner, 'POST', '/api/console/auth/factors/totp', { label: 'Phone', code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    const added = await call(owner, 'POST', '/api/console/auth/factors/totp', { label: 'Phone', code: await codeOf(secret) });
    expect(added.statusCode, added.body).toBe(201);
    recoveryCodes = added.json().recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    // Adding it confirmed this session: the owner may act now.
    expect(await me(owner)).toMatchObject({ secondFactor: { state: 'ok', methods: ['totp'] } });
    expect((await call(owner, 'GET', '/api/console/staff')).statusCode).toBe(200);

    const list = await call(owner, 'GET', '/api/console/auth/factors');
    expect(list.json()).toMatchObject({ items: [{ kind: 'totp', label: 'Phone' }], recoveryCodesLeft: 10, required: true });
    expect(list.body).not.toContain(secret);
    const [row] = await t.db.select().from(staffFactors).where(eq(staffFactors.kind, 'totp'));
    expect(row!.totpSecret).not.toContain(secret);
    // The secret's setup was used up: it cannot be confirmed twice.
    const again = await call(owner, 'POST', '/api/console/auth/factors/totp', { label: 'Phone', code: await codeOf(secret) });
    expect(again.statusCode).toBe(409);
  });

  it('is asked for at the next sign-in, before anything else; a wrong code is refused and audited', async () => {
    nextStep();
    const owner = await t.signInStaff(OWNER);
    expect(await me(owner)).toMatchObject({ secondFactor: { state: 'verify', methods: ['totp'] } });
    await expectGuarded(owner, 'verify');
    const wrong = await call(owner, 'POST', '/api/console/auth/second-factor/code', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('SECOND_FACTOR_INVALID');
    const ok = await call(owner, 'POST', '/api/console/auth/second-factor/code', { code: await codeOf(secret) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().secondFactor.state).toBe('ok');
    expect((await call(owner, 'GET', '/api/console/staff')).statusCode).toBe(200);

    const { items } = await t.consoleApp.consoleCtx.staff.listAudit({ page: 1, size: 10 });
    const actions = items.filter((e) => e.staffEmail === OWNER).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['staff_signed_in', 'staff_second_factor_failed', 'staff_second_factor_passed']),
    );
  });

  it('accepts each code once: the same code in another session is refused, the next one works', async () => {
    nextStep();
    const code = await codeOf(secret);
    const one = await t.signInStaff(OWNER);
    expect((await call(one, 'POST', '/api/console/auth/second-factor/code', { code })).statusCode).toBe(200);
    const other = await t.signInStaff(OWNER);
    const replay = await call(other, 'POST', '/api/console/auth/second-factor/code', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toContain('used already');
    expect(await me(other)).toMatchObject({ secondFactor: { state: 'verify' } });
    nextStep();
    const fresh = await call(other, 'POST', '/api/console/auth/second-factor/code', { code: await codeOf(secret) });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('takes a recovery code instead, once', async () => {
    const first = await t.signInStaff(OWNER);
    const used = await call(first, 'POST', '/api/console/auth/second-factor/code', { code: recoveryCodes[0]!.toUpperCase() });
    expect(used.statusCode, used.body).toBe(200);
    const second = await t.signInStaff(OWNER);
    const again = await call(second, 'POST', '/api/console/auth/second-factor/code', { code: recoveryCodes[0]! });
    expect(again.statusCode).toBe(400);
    expect((await call(first, 'GET', '/api/console/auth/factors')).json().recoveryCodesLeft).toBe(9);
  });

  it('limits attempts: 5 a minute per member, then 429', async () => {
    const owner = await t.signInStaff(OWNER);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(owner, 'POST', '/api/console/auth/second-factor/code', { code: '999999' })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('keeps a required role at one factor at least', async () => {
    nextStep();
    const owner = await t.signInStaff(OWNER);
    await call(owner, 'POST', '/api/console/auth/second-factor/code', { code: recoveryCodes[1]! });
    const [factor] = (await call(owner, 'GET', '/api/console/auth/factors')).json().items;
    const removed = await call(owner, 'DELETE', `/api/console/auth/factors/${factor.id}`);
    expect(removed.statusCode).toBe(409);
  });
});

describe("an owner's reset of another member's factors", () => {
  it('clears their factors and recovery codes, ends their sessions, and is audited with the reason', async () => {
    await t.addStaff('second-owner@vendor.example', 'owner');
    const second = await t.signInStaff('second-owner@vendor.example');
    await addTotp(second);
    const target = (await me(second)).staff.id as string;

    const first = await t.signInStaff(OWNER);
    expect((await call(first, 'POST', '/api/console/auth/second-factor/code', { code: recoveryCodes[2]! })).statusCode).toBe(200);
    const self = (await me(first)).staff.id as string;

    const noReason = await call(first, 'POST', `/api/console/staff/${target}/reset-factors`, {});
    expect(noReason.statusCode).toBe(400);
    expect((await call(second, 'GET', '/api/console/auth/me')).statusCode).toBe(200);
    const own = await call(first, 'POST', `/api/console/staff/${self}/reset-factors`, { reason: 'Mine' });
    expect(own.statusCode).toBe(409);

    const reset = await call(first, 'POST', `/api/console/staff/${target}/reset-factors`, { reason: 'Lost phone, ticket #12' });
    expect(reset.statusCode, reset.body).toBe(204);
    expect((await call(second, 'GET', '/api/console/auth/me')).statusCode).toBe(401);
    const again = await t.signInStaff('second-owner@vendor.example');
    expect(await me(again)).toMatchObject({ secondFactor: { state: 'enroll', methods: [] } });
    expect((await call(again, 'GET', '/api/console/auth/factors')).json()).toMatchObject({ items: [], recoveryCodesLeft: 0 });

    const { items } = await t.consoleApp.consoleCtx.staff.listAudit({ page: 1, size: 20 });
    expect(items.find((e) => e.action === 'staff_factors_reset')).toMatchObject({
      staffEmail: OWNER,
      subject: 'second-owner@vendor.example',
      reason: 'Lost phone, ticket #12',
      data: { factors: ['totp'] },
    });
  });
});

describe('sessions', () => {
  it('a session left short of its second factor ends with the link it came from (15 minutes)', async () => {
    const owner = await t.signInStaff(OWNER);
    expect((await me(owner)).secondFactor.state).toBe('verify');
    t.clock.advance(16 * 60_000);
    expect((await call(owner, 'GET', '/api/console/auth/me')).statusCode).toBe(401);
  });
});
