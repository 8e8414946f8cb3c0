import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, CONSOLE_SESSION_ONLY, type ConsoleRouteId } from '@portal/contract';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { liveRoutes } from '../../test/fuzz/route-list';

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, unknown>;
  requestBody?: unknown;
};
type Doc = {
  openapi: string;
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
};

let t: ConsoleTestApp;
let doc: Doc;
let owner: string;

const VERBS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const operationsOf = (d: Doc) =>
  Object.entries(d.paths).flatMap(([url, item]) =>
    Object.entries(item)
      .filter(([method]) => VERBS.has(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), url, operation })),
  );
/** `/api/console/licenses/{licenseKey}/suspend` → `/api/console/licenses/:licenseKey/suspend`. */
const fastifyPath = (url: string) => url.replace(/\{([^}]+)\}/g, ':$1');

beforeAll(async () => {
  t = await buildConsoleTestApp();
  await t.addStaff('owner@vendor.example', 'owner');
  owner = await t.signInStaff('owner@vendor.example');
  const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/docs', headers: { cookie: owner } });
  expect(res.statusCode, res.body).toBe(200);
  doc = res.json<Doc>();
});
afterAll(async () => t.close());

describe("the console API's OpenAPI document", () => {
  it('is OpenAPI 3.1 and has one operation per route of CONSOLE_ROUTES, named by its id', () => {
    expect(doc.openapi).toBe('3.1.0');
    const byId = new Map(operationsOf(doc).map((o) => [o.operation.operationId, o]));
    expect([...byId.keys()].sort()).toEqual(Object.keys(CONSOLE_ROUTES).sort());
    expect(operationsOf(doc)).toHaveLength(Object.keys(CONSOLE_ROUTES).length);
    for (const [id, route] of Object.entries(CONSOLE_ROUTES)) {
      const o = byId.get(id)!;
      expect(`${o.method} ${fastifyPath(o.url)}`, id).toBe(`${route.method} ${route.path}`);
    }
  });

  it('covers every route the listener serves under /api/console (HEAD as its GET)', () => {
    const documented = new Set(operationsOf(doc).map((o) => `${o.method} ${fastifyPath(o.url)}`));
    const missing = liveRoutes(t.consoleApp)
      .filter((r) => r.url.startsWith('/api/console/'))
      .map((r) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
  });

  it('describes, tags and answers every operation, with the security the table gives it', () => {
    const globalTags = new Set((doc.tags ?? []).map((tag) => tag.name));
    expect(doc.components?.securitySchemes?.staffToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components?.securitySchemes?.staffSession).toMatchObject({ type: 'apiKey' });
    for (const { method, url, operation } of operationsOf(doc)) {
      const key = `${method} ${url}`;
      const id = operation.operationId as ConsoleRouteId;
      expect(operation.summary?.trim(), key).toBeTruthy();
      expect(operation.description?.trim(), key).toBeTruthy();
      expect(operation.tags?.length, key).toBe(1);
      expect(globalTags.has(operation.tags![0]!), key).toBe(true);
      const codes = Object.keys(operation.responses ?? {});
      expect(
        codes.some((c) => /^[23]\d\d$/.test(c)),
        `${key}: ${codes.join(', ')}`,
      ).toBe(true);
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s)).sort();
      if (CONSOLE_ROUTES[id].roles === null) expect(schemes, key).toEqual([]);
      else if (CONSOLE_SESSION_ONLY.includes(id)) expect(schemes, key).toEqual(['staffSession']);
      else {
        expect(schemes, key).toEqual(['staffSession', 'staffToken']);
        expect(codes, key).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
  });

  it('gives request and answer schemas: an action states its reason, a list its page', () => {
    const op = (id: ConsoleRouteId) => operationsOf(doc).find((o) => o.operation.operationId === id)!.operation;
    expect(JSON.stringify(op('suspendLicense').requestBody)).toContain('"reason"');
    expect(JSON.stringify(op('createStaffToken').requestBody)).toContain('"expiresInDays"');
    expect(JSON.stringify(op('createStaffToken').responses!['201'])).toContain('"secret"');
    expect(JSON.stringify(op('listCustomers').responses!['200'])).toContain('"total"');
  });

  it('passes Spectral spectral:oas with no error or warning', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(JSON.stringify(doc));
    expect(results.map((r) => `${String(r.code)} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
    // The ruleset does run on this document: without its contact, it says so.
    const info = (doc as unknown as { info: Record<string, unknown> }).info;
    const withoutContact = { ...doc, info: { ...info, contact: undefined } };
    expect((await spectral.run(JSON.stringify(withoutContact))).map((r) => r.code)).toContain('info-contact');
  });

  it('is served on the console listener only, to staff (a session or any staff API token), never to the public', async () => {
    expect((await t.consoleApp.inject({ method: 'GET', url: '/api/console/docs' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/console/docs' })).statusCode).toBe(404);
    const token = await t.staffToken('billing');
    const res = await t.consoleApp.inject({
      method: 'GET',
      url: '/api/console/docs',
      headers: { authorization: token.authorization },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
