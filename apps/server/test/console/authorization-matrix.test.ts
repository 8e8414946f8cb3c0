import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, consoleTokenMay, STAFF_ROLES, type ConsoleRouteId, type StaffRole } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../console-helpers';
import { changedTables, dbStateReader, settle } from '../fuzz/db-state';
import { liveRoutes, type LiveRoute } from '../fuzz/route-list';
import { consoleFixtures, type ConsoleFixtures } from './fixtures';
import { SAMPLES, type Sample } from './samples';

/**
 * The console's authorization matrix, generated from its route table (CONSOLE_ROUTES) and from the
 * methods the listener really serves for each route (Fastify adds HEAD to every GET by itself):
 * for every route behind a role and every method served, no session and a customer's session get
 * 401, each role 2xx or 403 as the table says, bad input 400; whatever is refused changes nothing
 * in the database. The same again with staff API tokens of each role (`Authorization: Bearer
 * stk_…`): 2xx or 403 as consoleTokenMay says, and a revoked or expired token 401.
 */

/** Routes of the table the server does not offer yet (answer 404 to everyone). */
const NOT_BUILT: ConsoleRouteId[] = [];
const SIGN_IN: ConsoleRouteId[] = ['requestLink', 'exchangeLink', 'signOut', 'authOptions', 'googleStart', 'googleCallback'];

const guarded = (Object.keys(SAMPLES) as Array<keyof typeof SAMPLES>).filter((id) => !NOT_BUILT.includes(id));

let t: ConsoleTestApp;
let fx: ConsoleFixtures;
let staff: Record<StaffRole, string>;
let reader: Awaited<ReturnType<typeof dbStateReader>>;
let served: LiveRoute[];

/** The route id a served route answers for: a HEAD route is its GET route's companion. */
function idOfServed(r: LiveRoute): ConsoleRouteId | undefined {
  const method = r.method === 'HEAD' ? 'GET' : r.method;
  return (Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[]).find(
    (id) => CONSOLE_ROUTES[id].method === method && CONSOLE_ROUTES[id].path === r.url,
  );
}

/** Every method the console's listener serves for route `id`. */
const methodsOf = (id: ConsoleRouteId) => served.filter((r) => idOfServed(r) === id).map((r) => r.method);

beforeAll(async () => {
  t = await buildConsoleTestApp();
  served = liveRoutes(t.consoleApp).filter((r) => r.url.startsWith('/api/console/'));
  staff = await t.staffOfEachRole();
  fx = await consoleFixtures(t);
  reader = await dbStateReader(t);
  await settle(t);
});
afterAll(() => t?.close());

/** A cookie header's value, or `{ authorization }` for a staff API token. */
type Credential = string | { authorization: string } | undefined;

function requestOf(id: ConsoleRouteId, sample: Sample, credential: Credential, method?: string): InjectOptions {
  const route = CONSOLE_ROUTES[id];
  const url = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(sample.params?.[name] ?? ''));
  const query = new URLSearchParams(sample.query ?? {}).toString();
  return {
    method: (method ?? route.method) as 'GET',
    url: url + (query ? `?${query}` : ''),
    headers: credential === undefined ? {} : typeof credential === 'string' ? { cookie: credential } : credential,
    ...(sample.body !== undefined ? { payload: sample.body as object } : {}),
  };
}

async function unchanged(fn: () => Promise<void>) {
  await settle(t);
  const before = await reader.read();
  await fn();
  await settle(t);
  expect(changedTables(before, await reader.read()), 'tables changed').toEqual([]);
}

function expectStatus(res: LightMyRequestResponse, status: number, code: string | undefined, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
  if (code && res.body !== '') expect(res.json().code, what).toBe(code); // HEAD answers carry no body
}

describe('the matrix', () => {
  it('covers every route the listener serves under /api/console, whatever its method', () => {
    const unknown = served.filter((r) => !idOfServed(r)).map((r) => `${r.method} ${r.url}`);
    expect(unknown, 'served routes the table does not name').toEqual([]);
    // The automatic HEAD companions are served, so the matrix below runs them too.
    expect(methodsOf('search').sort()).toEqual(['GET', 'HEAD']);
  });

  it('covers every route of the table: each is offered (or listed as not built yet) and has a sample', () => {
    const ids = Object.keys(CONSOLE_ROUTES) as ConsoleRouteId[];
    for (const id of ids) {
      const { method, path } = CONSOLE_ROUTES[id];
      expect(t.consoleApp.hasRoute({ method, url: path }), `${id} ${method} ${path}`).toBe(!NOT_BUILT.includes(id));
      if (!SIGN_IN.includes(id)) expect(SAMPLES, id).toHaveProperty(id);
    }
    expect(ids.filter((id) => CONSOLE_ROUTES[id].roles === null).sort()).toEqual([...SIGN_IN].sort());
  });
});

describe.each(guarded.map((id) => [id] as const))('%s', (id) => {
  const entry = SAMPLES[id];
  const allowed = CONSOLE_ROUTES[id].roles as readonly StaffRole[];

  it('no session, or a customer session under either cookie name: 401 for every method served, nothing changes', async () => {
    const sample = await entry.ok(fx);
    const customer = fx.a.cookie.split('=')[1]!;
    await unchanged(async () => {
      for (const cookie of [undefined, fx.a.cookie, `portal_console_session=${customer}`]) {
        const refusal = await t.consoleApp.inject(requestOf(id, sample, cookie));
        expectStatus(refusal, 401, 'UNAUTHENTICATED', `cookie ${cookie}`);
        for (const method of methodsOf(id).filter((m) => m !== CONSOLE_ROUTES[id].method)) {
          const res = await t.consoleApp.inject(requestOf(id, sample, cookie, method));
          expectStatus(res, 401, 'UNAUTHENTICATED', `${method}, cookie ${cookie}`);
          // Not even the length of the real answer: only the refusal's.
          expect(res.headers['content-length'], `${method} length`).toBe(refusal.headers['content-length']);
        }
      }
    });
  });

  it.each(STAFF_ROLES.filter((r) => !allowed.includes(r)))(
    'role %s: 403 for every method served, nothing changes',
    async (role) => {
      const sample = await entry.ok(fx);
      await unchanged(async () => {
        for (const method of methodsOf(id)) {
          expectStatus(
            await t.consoleApp.inject(requestOf(id, sample, staff[role], method)),
            403,
            'FORBIDDEN',
            `${method} ${role}`,
          );
        }
      });
    },
  );

  if (entry.bad) {
    const bad = entry.bad;
    it('bad input: 400 for a role that may call it, nothing changes', async () => {
      await unchanged(async () => {
        const res = await t.consoleApp.inject(requestOf(id, bad(fx), staff[allowed[0]!]));
        expectStatus(res, 400, undefined, 'bad input');
        expect(res.json().message).toBeTruthy();
      });
    });
  }

  it.each([...allowed])('role %s gets through', async (role) => {
    const res = await t.consoleApp.inject(requestOf(id, await entry.ok(fx), staff[role]));
    expect(res.statusCode, res.body).toBe(entry.status ?? 200);
    expect(res.headers['cache-control'], 'every API answer, whatever its type').toBe('no-store');
    await settle(t);
    if (methodsOf(id).includes('HEAD')) {
      const head = await t.consoleApp.inject(requestOf(id, await entry.ok(fx), staff[role], 'HEAD'));
      expect(head.statusCode, `HEAD: ${head.body}`).toBe(200);
    }
  });
});

describe.each(guarded.map((id) => [id] as const))('%s with a staff API token', (id) => {
  const entry = SAMPLES[id];
  const tokenRoles = STAFF_ROLES.filter((r) => consoleTokenMay(r, id));

  it('a revoked or expired token, or a malformed one: 401 for every method served, nothing changes', async () => {
    const sample = await entry.ok(fx);
    const revoked = await t.staffToken('owner', 'revoked');
    const expired = await t.staffToken('owner', 'expired');
    await unchanged(async () => {
      for (const authorization of [revoked.authorization, expired.authorization, 'Bearer stk_nope', 'Bearer ']) {
        for (const method of methodsOf(id)) {
          const res = await t.consoleApp.inject(requestOf(id, sample, { authorization }, method));
          expectStatus(res, 401, 'UNAUTHENTICATED', `${method} ${authorization}`);
          expect(res.headers['www-authenticate'], method).toMatch(/^Bearer realm="console-api", error="invalid_token"/);
        }
      }
    });
  });

  it.each(STAFF_ROLES.filter((r) => !tokenRoles.includes(r)))(
    'a token of role %s: 403 for every method served, nothing changes',
    async (role) => {
      const sample = await entry.ok(fx);
      const token = await t.staffToken(role);
      await unchanged(async () => {
        for (const method of methodsOf(id)) {
          const res = await t.consoleApp.inject(requestOf(id, sample, { authorization: token.authorization }, method));
          expectStatus(res, 403, 'FORBIDDEN', `${method} ${role}`);
        }
      });
    },
  );

  it.each(tokenRoles)('a token of role %s gets through, for every method served', async (role) => {
    const token = await t.staffToken(role);
    const credential = { authorization: token.authorization };
    const res = await t.consoleApp.inject(requestOf(id, await entry.ok(fx), credential));
    expect(res.statusCode, res.body).toBe(entry.status ?? 200);
    expect(res.headers['cache-control'], 'every API answer, whatever its type').toBe('no-store');
    await settle(t);
    if (methodsOf(id).includes('HEAD')) {
      const head = await t.consoleApp.inject(requestOf(id, await entry.ok(fx), credential, 'HEAD'));
      expect(head.statusCode, `HEAD: ${head.body}`).toBe(200);
    }
  });

  if (entry.bad && tokenRoles.length > 0) {
    const bad = entry.bad;
    it('bad input through a token: 400, nothing changes', async () => {
      const token = await t.staffToken(tokenRoles[0]!);
      // A use notes the minute on the token (once a minute, on the test's clock): this one does it.
      await t.consoleApp.inject({ method: 'GET', url: '/api/console/docs', headers: { authorization: token.authorization } });
      await unchanged(async () => {
        const res = await t.consoleApp.inject(requestOf(id, bad(fx), { authorization: token.authorization }));
        expectStatus(res, 400, undefined, 'bad input');
      });
    });
  }
});

describe('staff API tokens in the matrix', () => {
  it('never reach staff, tokens or second factors, whatever their role', () => {
    for (const id of ['addStaff', 'removeStaff', 'createStaffToken', 'revokeStaffToken', 'checkCode', 'me'] as const) {
      expect(
        STAFF_ROLES.filter((r) => consoleTokenMay(r, id)),
        id,
      ).toEqual([]);
    }
    expect(consoleTokenMay('support', 'suspendLicense')).toBe(true);
    expect(consoleTokenMay('billing', 'suspendLicense')).toBe(false);
  });
});
