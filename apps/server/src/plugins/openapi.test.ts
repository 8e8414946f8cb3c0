import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers';
import { reportingStall } from '../../test/stall-report';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { DOCS_PREFIX, nameOperations } from './openapi';
import { ALIASES, OPERATIONS } from './openapi-operations';
import { ROUTE_SCOPES } from './token-scopes';
import { liveRoutes } from '../../test/fuzz/route-list';

type Operation = { operationId?: string; summary?: string; description?: string; tags?: string[]; responses?: object };
type Doc = { tags?: { name: string }[]; paths: Record<string, Record<string, Operation>> };

type Served = { name: string; app: FastifyInstance; doc: Doc };

let database: Database;
let dir: string;
/** The portal as it starts with nothing configured, and with Stripe and Google sign-in configured. */
const served: Served[] = [];
const CONFIGS = ['default', 'stripe and google'] as const;
const servedAs = (name: string) => served.find((s) => s.name === name)!;

const VERBS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const operationsOf = (d: Doc) =>
  Object.entries(d.paths).flatMap(([url, item]) =>
    Object.entries(item)
      .filter(([method]) => VERBS.has(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${url}`, operation })),
  );
/** `GET /api/licenses/{licenseKey}/nodes` → the route as Fastify registered it, `/api/licenses/:licenseKey/nodes`. */
const routeOf = (key: string) => {
  const [method, url] = key.split(' ') as [string, string];
  return { method, url: url.replace(/\{([^}]+)\}/g, ':$1') };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'portal-openapi-'));
  database = await createTestDatabase();
  const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir, WORKERS: 'false' };
  // Nothing is called at start-up: these addresses are never reached.
  const providers = {
    STRIPE_SECRET_KEY: 'sk_test_openapi',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_openapi',
    STRIPE_WEBHOOK_SECRET: 'whsec_openapi',
    STRIPE_API_URL: 'http://127.0.0.1:9',
    GOOGLE_CLIENT_ID: 'client',
    GOOGLE_CLIENT_SECRET: 'secret',
    OIDC_ISSUER: 'http://127.0.0.1:9',
  };
  for (const [name, env] of [
    ['default', base],
    ['stripe and google', { ...base, ...providers }],
  ] as const) {
    const app = await buildApp(loadConfig(env), { database, logger: false, serveWeb: false });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(res.statusCode).toBe(200);
    served.push({ name, app, doc: res.json() });
  }
});
afterAll(async () => {
  for (const { name, app } of served) await reportingStall(`closing the ${name} app`, () => app.close());
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the served OpenAPI document', () => {
  it.each([0, 1])(
    'names every operation once, describes it, tags it with a global tag and gives its success answer (%i)',
    (i) => {
      const { doc } = served[i]!;
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThan(30);
      const globalTags = new Set((doc.tags ?? []).map((t) => t.name));
      const seen = new Map<string, string>();
      for (const { key, operation } of operations) {
        expect(operation.operationId, `${key} has no operationId: add it to openapi-operations.ts`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(seen.get(operation.operationId!), `${key} reuses ${operation.operationId}`).toBeUndefined();
        seen.set(operation.operationId!, key);
        expect(operation.summary?.trim(), `${key} summary`).toBeTruthy();
        expect(operation.description?.trim(), `${key} description`).toBeTruthy();
        expect(operation.tags?.length, `${key} tags`).toBeGreaterThan(0);
        for (const tag of operation.tags ?? [])
          expect(globalTags.has(tag), `${key} tag ${tag} is not defined globally`).toBe(true);
        const codes = Object.keys(operation.responses ?? {});
        expect(
          codes.some((c) => /^[23]\d\d$/.test(c)),
          `${key} has no success answer (${codes.join(', ')})`,
        ).toBe(true);
      }
    },
  );

  it('serves exactly the operations of the table, each trailing-slash alias once under its main spelling', () => {
    const keys = served.map(({ doc }) => operationsOf(doc).map((o) => o.key));
    expect([...new Set(keys.flat())].sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const key of Object.keys(ALIASES)) expect(keys.flat(), key).not.toContain(key);
    expect(keys[0]).not.toContain('POST /api/billing/webhook');
    expect(keys[1]).toContain('POST /api/billing/webhook');
  });

  it.each(CONFIGS)('has an entry for every API route of the app, so a new route without a name fails (%s)', (name) => {
    const missing = liveRoutes(servedAs(name).app)
      // The reference itself and the health probes (plugins/observability.ts) are left out of the document.
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith(DOCS_PREFIX) && !r.url.startsWith('/api/health/'))
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
      // Fastify answers HEAD for every GET route: it needs no name of its own.
      .filter(
        (key) => !(key in OPERATIONS) && !(key in ALIASES) && !(key.startsWith('HEAD ') && `GET ${key.slice(5)}` in OPERATIONS),
      )
      .filter((key) => !(key.startsWith('HEAD ') && `GET ${key.slice(5)}` in ALIASES));
    expect(missing, 'routes without an entry in openapi-operations.ts').toEqual([]);
  });

  it('has a route for every entry of the table and of the aliases', () => {
    for (const key of [...Object.keys(OPERATIONS), ...Object.keys(ALIASES)]) {
      const { method, url } = routeOf(key);
      expect(
        served.some(({ app }) => app.hasRoute({ method: method as 'GET', url })),
        key,
      ).toBe(true);
    }
  });

  it("uses the web app's names for the endpoints it calls", () => {
    const byKey = Object.fromEntries(operationsOf(served[1]!.doc).map((o) => [o.key, o.operation.operationId]));
    expect(byKey['GET /api/billing/subscriptions/{stripeId}/invoices']).toBe('listInvoices');
    expect(byKey['GET /api/licenses/']).toBe('listLicenses');
    expect(byKey['DELETE /api/users/']).toBe('deleteAccount');
    expect(byKey['GET /api/products/pce/files/{filename}']).not.toBe(byKey['HEAD /api/products/pce/files/{filename}']);
  });

  it.each(CONFIGS)('passes Spectral spectral:oas with no finding but path-keys-no-trailing-slash (%s)', async (name) => {
    const { doc } = servedAs(name);
    const spectral = new Spectral();
    // The ruleset `extends: spectral:oas` names in a .spectral.yaml.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(JSON.stringify(doc));
    const findings = results
      .filter((r) => r.code !== 'path-keys-no-trailing-slash')
      .map((r) => `${String(r.code)} at ${r.path.join('.')}: ${r.message}`);
    expect(findings).toEqual([]);
    // The rule left out does fire: the specification's paths end in a slash.
    expect(results.some((r) => r.code === 'path-keys-no-trailing-slash')).toBe(true);
  });
});

describe('the security the document declares', () => {
  it('has the session and bearer schemes, and names the scope a personal API token needs on each route that takes one', () => {
    const doc = served[0]!.doc as Doc & {
      components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, Operation & { security?: Array<Record<string, string[]>> }>>;
    };
    expect(doc.components?.securitySchemes?.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components?.securitySchemes?.session).toMatchObject({ type: 'apiKey' });
    for (const [key, scope] of Object.entries(ROUTE_SCOPES)) {
      const [method, url] = key.split(' ') as [string, string];
      const operation = doc.paths[url]?.[method.toLowerCase()];
      expect(operation?.security, key).toEqual([{ session: [] }, { apiToken: [] }]);
      expect(operation?.['x-api-token-scope' as keyof Operation], key).toBe(scope);
      expect(operation?.description, key).toContain(`needs the scope ${scope}`);
    }
    expect(doc.paths['/api/users/tokens']!.post!.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/auth/link']!.post!.security).toBeUndefined();
  });
});

describe('nameOperations', () => {
  it('leaves an operation missing from the table without a name, so the test above fails for a new route', () => {
    const named = nameOperations({
      paths: { '/api/new': { get: { summary: 'New', responses: { 200: { description: 'ok' } } } } },
    });
    expect((named.paths!['/api/new']!.get as Operation).operationId).toBeUndefined();
  });

  it('keeps a declared success answer and adds the table one only where none is declared', () => {
    const named = nameOperations({
      paths: {
        '/api/users/': { delete: { summary: 'Delete', responses: { 400: { description: 'bad' } } } },
        '/api/users': { delete: { summary: 'Delete', responses: {} } },
        '/api/licenses/': { get: { summary: 'List', responses: { 200: { description: 'A page' } } } },
      },
    });
    expect(Object.keys(named.paths!)).toEqual(['/api/users/', '/api/licenses/']);
    const del = named.paths!['/api/users/']!.delete as Operation;
    expect(del).toMatchObject({ operationId: 'deleteAccount', tags: ['users'], description: 'Delete' });
    expect(Object.keys(del.responses!).sort()).toEqual(['204', '400']);
    expect((named.paths!['/api/licenses/']!.get as Operation).responses).toEqual({ 200: { description: 'A page' } });
  });
});
