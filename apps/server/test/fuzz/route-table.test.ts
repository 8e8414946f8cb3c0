import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessions, users } from '../../src/db/schema/index';
import { buildTestApp, type TestApp } from '../helpers';
import { changedTables, dbStateReader } from './db-state';
import { schemaKeys } from './harness';
import { compareWithTable, liveRoutes } from './route-list';
import { ROUTES, routeId, routesFor, type RouteEntry } from './routes';

/**
 * The route table against the routes the application really registers, with the local billing
 * engine and with Stripe: a route added to the app without an entry here fails, naming it.
 */

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_route_table',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_route_table',
  STRIPE_WEBHOOK_SECRET: 'whsec_route_table',
  // Never called: building the app does not talk to Stripe.
  STRIPE_API_URL: 'http://127.0.0.1:9',
  STRIPE_PRICE_MONTH: 'price_month',
  STRIPE_PRICE_YEAR: 'price_year',
};

let local: TestApp;
let stripe: TestApp;
beforeAll(async () => {
  [local, stripe] = await Promise.all([buildTestApp(), buildTestApp(STRIPE_ENV)]);
});
afterAll(async () => {
  await Promise.all([local?.close(), stripe?.close()]);
});

describe.each([
  ['local billing', 'local' as const, () => local],
  ['Stripe billing', 'stripe' as const, () => stripe],
])('with %s', (_name, billing, app) => {
  it('lists every route of the app in the table, and nothing the app does not have', () => {
    const live = liveRoutes(app().app);
    expect(live.length).toBeGreaterThan(40);
    const diff = compareWithTable(routesFor(billing), live);
    expect(diff.missingFromTable, 'routes of the app missing from test/fuzz/routes.ts').toEqual([]);
    expect(diff.notInApp, 'routes in test/fuzz/routes.ts the app does not have').toEqual([]);
  });

  it('names a route the table lacks', () => {
    const diff = compareWithTable(
      routesFor(billing).filter((r) => r.url !== '/api/config'),
      liveRoutes(app().app),
    );
    expect(diff.missingFromTable).toEqual(['GET /api/config', 'HEAD /api/config']);
  });

  it("declares the same inputs as the route's schema in the API description", () => {
    const spec = app().app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
    const problems: string[] = [];
    for (const route of routesFor(billing)) {
      const op = spec.paths[route.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[route.method.toLowerCase()];
      if (!op) continue; // hidden from the description (health, metrics, docs, one Google spelling)
      if (route.google && !(op.parameters ?? []).some((x) => x.in === 'query')) continue; // Google not configured here
      problems.push(...inputMismatches(route, op));
    }
    expect(problems).toEqual([]);
  });
});

describe('the database fingerprint of the properties', () => {
  it('sees a one-column change in any table, and ignores a session being touched', async () => {
    const reader = await dbStateReader(local);
    const cookie = await local.signIn('fingerprint@example.com');
    const before = await reader.read();
    await local.db.update(sessions).set({ lastSeenAt: new Date(0) });
    expect(changedTables(before, await reader.read())).toEqual([]);
    await local.db.update(users).set({ company: 'Changed' }).where(eq(users.email, 'fingerprint@example.com'));
    expect(changedTables(before, await reader.read())).toEqual(['users (1 -> 1 rows)']);
    expect(cookie).toBeTruthy();
  });

  it('reads every row again only after a write: an unchanged snapshot answers, a committed write never hides', async () => {
    // On PostgreSQL the snapshot is the server's: another database's writes (autovacuum's ANALYZE
    // of another test file's tables) move it too, which costs a full read, never a wrong answer. So
    // the counts of full and kept reads are exact on PGlite, whose server is this test's alone.
    const alone = local.database.kind === 'pglite';
    await local.signIn('snapshot@example.com');
    const reader = await dbStateReader(local);
    const counted = (full: number, cached: number) => {
      if (alone) expect(reader.reads).toEqual({ full, cached });
      else expect(reader.reads.full + reader.reads.cached).toBe(full + cached);
    };
    const first = await reader.read();
    counted(1, 0);
    expect(await reader.read()).toEqual(first);
    counted(1, 1);
    await local.db.update(users).set({ company: 'Changed' }).where(eq(users.email, 'snapshot@example.com'));
    expect(changedTables(first, await reader.read())).toEqual(['users (2 -> 2 rows)']);
    counted(2, 1);
    // A write that changes nothing still takes a transaction id: read again, and found equal.
    const second = await reader.read();
    const fullBefore = reader.reads.full;
    await local.db.update(users).set({ company: 'Changed' }).where(eq(users.email, 'snapshot@example.com'));
    expect(changedTables(second, await reader.read())).toEqual([]);
    expect(reader.reads.full).toBe(fullBefore + 1);
    counted(3, 2);
  });
});

describe('the table itself', () => {
  it('has one entry per method and path', () => {
    const ids = ROUTES.map((r) => `${routeId(r)} ${r.billing ?? ''}`);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('names the resources of every owner route, a reason for every route open without a session, and a sample for the matrix', () => {
    for (const r of ROUTES) {
      if (r.access === 'owner') {
        expect(r.owns?.length, routeId(r)).toBeGreaterThan(0);
        expect(r.sample, routeId(r)).toBeTypeOf('function');
      } else {
        expect(r.owns, routeId(r)).toBeUndefined();
      }
      if (r.access !== 'session' && r.access !== 'owner') expect(r.why, routeId(r)).toBeTruthy();
    }
  });

  it('gives every route with inputs a bad-input test file', () => {
    const unfuzzed = ROUTES.filter((r) => (r.params || r.query || r.body || r.method !== 'GET') && !r.fuzz && !r.destructive);
    expect(unfuzzed.map(routeId)).toEqual([]);
  });
});

type OpenApiParam = { in: string; name: string; required?: boolean; schema?: { pattern?: string } };
type OpenApiOperation = {
  parameters?: OpenApiParam[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
};

/** Compares names and required-ness of every path, query, header and body field. */
function inputMismatches(route: RouteEntry, op: OpenApiOperation): string[] {
  const out: string[] = [];
  const id = routeId(route);
  const names = (where: string) =>
    (op.parameters ?? [])
      .filter((x) => x.in === where)
      .map((x) => x.name)
      .sort();
  const required = (schema: z.ZodType) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      required?: string[];
      anyOf?: { required?: string[] }[];
    };
    return [...(json.required ?? json.anyOf?.find((s) => s.required)?.required ?? [])].sort();
  };
  for (const [where, part] of [
    ['path', route.params],
    ['query', route.query],
    ['header', route.headers],
  ] as const) {
    const declared = part ? schemaKeys(part.schema).sort() : [];
    if (where === 'path' && route.url.endsWith('*')) continue;
    if (JSON.stringify(names(where)) !== JSON.stringify(declared))
      out.push(`${id}: ${where} ${names(where).join(',')} vs table ${declared.join(',')}`);
    const requiredLive = (op.parameters ?? [])
      .filter((x) => x.in === where && x.required)
      .map((x) => x.name)
      .sort();
    if (part && where !== 'path' && JSON.stringify(requiredLive) !== JSON.stringify(required(part.schema))) {
      out.push(`${id}: required ${where} ${requiredLive.join(',')} vs table ${required(part.schema).join(',')}`);
    }
  }
  const idem = (op.parameters ?? []).find((x) => x.in === 'header' && x.name === 'idempotency-key');
  if (idem && idem.schema?.pattern !== '^[A-Za-z0-9_.:-]{8,255}$')
    out.push(`${id}: Idempotency-Key pattern is now ${idem.schema?.pattern}`);

  const body = op.requestBody?.content?.['application/json']?.schema;
  if (Boolean(body) !== Boolean(route.body)) out.push(`${id}: body ${body ? 'declared by the route' : 'absent from the route'}`);
  if (body && route.body) {
    const live = Object.keys(body.properties ?? {}).sort();
    const table = schemaKeys(route.body.schema).sort();
    if (JSON.stringify(live) !== JSON.stringify(table))
      out.push(`${id}: body fields ${live.join(',')} vs table ${table.join(',')}`);
    if (JSON.stringify([...(body.required ?? [])].sort()) !== JSON.stringify(required(route.body.schema))) {
      out.push(`${id}: required body fields ${body.required?.join(',')} vs table ${required(route.body.schema).join(',')}`);
    }
  }
  return out;
}
