import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';
import { NO_IDS, wellFormedKey, type FuzzIds } from './arbitraries';
import { customerWithEverything, publishRelease, signIn, type Customer } from './customers';
import { changedTables, dbStateReader, settle } from './db-state';
import { ErrorBodySchema } from './harness';
import { compareWithTable, liveRoutes, type LiveRoute } from './route-list';
import { fillPath, routeId, routesFor, type RouteEntry, type Sample } from './routes';

/**
 * The authorization matrix, generated from the route table: customer A owns one of everything,
 * customer B is signed in and owns none of it, and a visitor has no session.
 *
 * - owner routes: B asking for A's resource gets 404 with the very body of an unknown id, a
 *   visitor gets 401, and neither changes anything; A gets through (so the 404 is about ownership);
 * - session routes: a visitor gets 401 and changes nothing;
 * - public routes are exactly the listed ones, and answer a visitor without 401.
 */

const ROUTES = routesFor('local');
const owner = ROUTES.filter((r) => r.access === 'owner');
const session = ROUTES.filter((r) => r.access === 'session');

/** Well-formed ids that nothing in the database has. */
const UNKNOWN: FuzzIds = {
  ...NO_IDS,
  licenseKey: wellFormedKey('YYYYYYYYYYYYYYYYYYYYYYY3'),
  nodeId: randomUUID(),
  stripeId: 'sub_matrix_unknown',
  paymentMethodId: 'pm_matrix_unknown',
  invoiceId: 'in_matrix_unknown',
};

let t: TestApp;
let a: Customer;
let b: Customer;
let bLicenseKey: string;
let reader: Awaited<ReturnType<typeof dbStateReader>>;
let served: LiveRoute[];

/** Every method the app serves for a route of the table (Fastify adds HEAD to every GET by itself). */
const methodsOf = (route: RouteEntry) =>
  served
    .filter((l) => l.url === route.url && (l.method === route.method || (route.method === 'GET' && l.method === 'HEAD')))
    .map((l) => l.method);

beforeAll(async () => {
  t = await buildTestApp();
  served = liveRoutes(t.app);
  a = await customerWithEverything(t, 'matrix-a@example.com');
  a.ids.download = await publishRelease(t, a.cookie);
  b = await signIn(t, 'matrix-b@example.com');
  // B has a license of their own too, so that "A's node under B's key" can be asked.
  bLicenseKey = (
    await t.app.ctx.services.licenses.issueForEmail({
      email: b.email,
      maxNodes: 1,
      expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      actor: 'test',
    })
  ).key;
  reader = await dbStateReader(t);
  await settle(t);
});
afterAll(() => t?.close());

function requestOf(route: RouteEntry, sample: Sample, cookie: string | undefined, method: string = route.method): InjectOptions {
  const segments = Object.fromEntries(Object.entries(sample.params ?? {}).map(([k, v]) => [k, encodeURIComponent(v)]));
  const query = new URLSearchParams(sample.query ?? {}).toString();
  return {
    method: method as 'GET',
    url: fillPath(route.url, segments) + (query ? `?${query}` : ''),
    headers: { ...(sample.headers ?? {}), ...(cookie ? { cookie } : {}) },
    ...(sample.body !== undefined ? { payload: sample.body as object } : {}),
  };
}

const sampleOf = (route: RouteEntry, ids: FuzzIds): Sample => route.sample?.(ids) ?? {};

function expectError(res: LightMyRequestResponse, status: number, code: string, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
  if (res.body === '') return; // HEAD
  expect(ErrorBodySchema.parse(res.json()).code, what).toBe(code);
}

/** Runs `fn` and checks that the database is exactly as before. */
async function unchanged(fn: () => Promise<void>) {
  const before = await reader.read();
  await fn();
  await settle(t);
  expect(changedTables(before, await reader.read()), 'tables changed').toEqual([]);
}

describe('the matrix', () => {
  it('covers every route of the app (a route missing from test/fuzz/routes.ts is named here)', () => {
    const diff = compareWithTable(ROUTES, liveRoutes(t.app));
    expect(diff.missingFromTable, 'routes with no place in the matrix').toEqual([]);
    expect(owner.length).toBeGreaterThanOrEqual(13);
    expect(session.length).toBeGreaterThanOrEqual(15);
  });

  it('covers every method the app serves for each route: its own, and HEAD beside a GET', () => {
    // The link exchange opts out of HEAD (HEAD never redeems a link: DESIGN.md section 6).
    const noHead = ['GET /api/auth/link/:id'];
    for (const route of ROUTES) {
      const expected = route.method === 'GET' && !noHead.includes(routeId(route)) ? ['GET', 'HEAD'] : [route.method];
      expect(methodsOf(route).sort(), routeId(route)).toEqual(expected);
    }
  });

  it('lists exactly these routes as open without a session', () => {
    const open = ROUTES.filter((r) => r.access !== 'owner' && r.access !== 'session').map((r) => `${routeId(r)} [${r.access}]`);
    expect(open.sort()).toEqual(
      [
        'GET /api/health/live [public]',
        'GET /api/health/ready [public]',
        'GET /metrics [public]',
        'GET /api/docs [public]',
        'GET /api/docs/ [public]',
        'GET /api/docs/json [public]',
        'GET /api/docs/yaml [public]',
        'GET /api/docs/static/index.html [public]',
        'GET /api/docs/static/swagger-initializer.js [public]',
        'GET /api/docs/* [public]',
        'GET /api/config [public]',
        'POST /api/auth/link [public]',
        'GET /api/auth/link/:id [public]',
        'GET /api/auth/recipient/:id [public]',
        'GET /api/auth/logout [public]',
        'GET /api/auth/google [public]',
        'GET /api/auth/google/ [public]',
        'GET /api/auth/google/callback [public]',
        'GET /api/licenses/public-key [public]',
        'POST /api/licenses/:licenseKey/activate [public]',
        'POST /api/licenses/:licenseKey/validate [public]',
        'GET /api/billing/prices [public]',
        'GET /api/products/pce/files/:filename [signature]',
      ].sort(),
    );
    // With Stripe, the webhook joins them (its signature is fuzzed in bad-input-stripe-webhook.test.ts).
    expect(
      routesFor('stripe')
        .filter((r) => r.access === 'webhook')
        .map(routeId),
    ).toEqual(['POST /api/billing/webhook']);
  });
});

describe.each(owner.map((r) => [routeId(r), r] as const))('owner route %s', (_id, route) => {
  // The methods Fastify serves for a route; 'covers every method' below holds them to what it does.
  const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];

  it.each(methods)(
    "%s: another customer gets 404 for A's resource, the same answer as an unknown id; nothing changes",
    async (method) => {
      await unchanged(async () => {
        const unknown = await t.app.inject(requestOf(route, sampleOf(route, UNKNOWN), b.cookie, method));
        const theirs = await t.app.inject(requestOf(route, sampleOf(route, a.ids), b.cookie, method));
        expectError(unknown, 404, 'NOT_FOUND', 'B asks for an unknown id');
        expectError(theirs, 404, 'NOT_FOUND', "B asks for A's resource");
        expect(theirs.body, 'the answer tells A’s resource apart from an unknown one').toBe(unknown.body);
      });
    },
  );

  it.each(methods)('%s: a visitor gets 401 and changes nothing', async (method) => {
    await unchanged(async () => {
      expectError(
        await t.app.inject(requestOf(route, sampleOf(route, a.ids), undefined, method)),
        401,
        'UNAUTHENTICATED',
        'visitor',
      );
      // An unknown id tells a visitor nothing either.
      expectError(
        await t.app.inject(requestOf(route, sampleOf(route, UNKNOWN), undefined, method)),
        401,
        'UNAUTHENTICATED',
        'visitor',
      );
    });
  });
});

describe('nodes under another license', () => {
  const release = owner.find((r) => r.method === 'DELETE' && r.url.endsWith('/nodes/:id'))!;
  it("B cannot release A's node by naming it under B's own license (404, node kept)", async () => {
    await unchanged(async () => {
      const res = await t.app.inject(requestOf(release, { params: { licenseKey: bLicenseKey, id: a.ids.nodeId } }, b.cookie));
      expectError(res, 404, 'NOT_FOUND', "A's node under B's key");
    });
  });
});

describe('the owner', () => {
  // Last, in table order: the owner's own requests change things (a card removed, a node released).
  it('gets through every owner route, so the 404s above are about ownership', async () => {
    const refused: string[] = [];
    for (const route of owner) {
      const res = await t.app.inject(requestOf(route, sampleOf(route, a.ids), a.cookie));
      if (res.statusCode >= 300 && res.statusCode !== route.ownerStatus)
        refused.push(`${routeId(route)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      await settle(t);
    }
    expect(refused).toEqual([]);
  });
});

describe.each(session.map((r) => [routeId(r), r] as const))('session route %s', (_id, route) => {
  it('a visitor gets 401 for every method served and changes nothing', async () => {
    await unchanged(async () => {
      for (const method of methodsOf(route)) {
        const res = await t.app.inject(requestOf(route, sampleOf(route, a.ids), undefined, method));
        expectError(res, 401, 'UNAUTHENTICATED', `visitor, ${method}`);
      }
    });
  });
  if (route.method === 'GET') {
    it('a signed-in customer gets through', async () => {
      const res = await t.app.inject(requestOf(route, sampleOf(route, b.ids), b.cookie));
      expect(res.statusCode, res.body).toBe(200);
    });
  }
});

describe.each(ROUTES.filter((r) => r.access === 'public' || r.access === 'signature').map((r) => [routeId(r), r] as const))(
  'open route %s',
  (_id, route) => {
    it('answers a visitor without asking for a session, for every method served', async () => {
      if (route.url.endsWith('*')) return; // swagger-ui's files: fuzzed in bad-input-products.test.ts
      for (const method of methodsOf(route)) {
        const res = await t.app.inject(requestOf(route, sampleOf(route, a.ids), undefined, method));
        expect(res.statusCode, `${method}: ${res.body}`).not.toBe(401);
        expect(res.statusCode, `${method}: ${res.body}`).toBeLessThan(500);
      }
    });
  },
);

describe('signed download URLs', () => {
  const files = ROUTES.find((r) => r.access === 'signature')!;
  it('serve the file to anyone holding the URL, and refuse a URL without its signature (403)', async () => {
    const ok = await t.app.inject(requestOf(files, sampleOf(files, a.ids), undefined));
    expect(ok.statusCode).toBe(200);
    const { sig: _sig, ...unsigned } = sampleOf(files, a.ids).query ?? {};
    const refused = await t.app.inject(requestOf(files, { ...sampleOf(files, a.ids), query: unsigned }, undefined));
    expectError(refused, 403, 'FORBIDDEN', 'unsigned download');
  });
});
