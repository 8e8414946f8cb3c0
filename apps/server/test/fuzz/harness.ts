import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES, ErrorIssueSchema } from '@portal/contract';
import type { TestApp } from '../helpers';
import { HUGE, longText, oddNumberText, oddText, RAW_QUERIES, RAW_SEGMENTS, wrongTyped, type FuzzIds } from './arbitraries';
import { changedTables, dbStateReader, settle } from './db-state';
import { knownBug } from './known-bugs';
import { APP_LIMIT, fillPath, ROUTES, routeId, type FuzzGroup, type RouteEntry } from './routes';

/* ------------------------------------------------------------------------------------------------
 * Run settings: bounded, and reproducible from the seed printed with every failure.
 * ---------------------------------------------------------------------------------------------- */

export const SEED = Number(process.env.FUZZ_SEED ?? 20_250_131);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** The one error shape of the contract (`ErrorSchema`), strictly: nothing else in the body. */
export const ErrorBodySchema = z.strictObject({
  message: z.string().min(1),
  code: z.enum(ERROR_CODES),
  issues: z.array(ErrorIssueSchema).optional(),
});

/* ------------------------------------------------------------------------------------------------
 * Cases: a request as sent, and what the contract says the answer must be.
 * ---------------------------------------------------------------------------------------------- */

export type Expectation = { kind: 'any' } | { kind: 'reject'; statuses: number[] };

type Query = Record<string, string | string[]>;

/** A request before it is put on the wire; `raw*` fields bypass encoding and the oracle. */
export type Candidate = {
  label: string;
  params: Record<string, string>;
  rawSegment?: { key: string; raw: string };
  query: Query | undefined;
  rawQuery?: string;
  /** The JSON body; `undefined` sends none. */
  body: unknown;
  /** Bytes sent instead of `JSON.stringify(body)`. */
  rawPayload?: string | Buffer;
  /** Content-Type for a payload (default application/json); null sends none. */
  contentType?: string | null;
  headers: Record<string, string>;
  /** Set by transport mutations whose answer does not depend on the contract. */
  expect?: Expectation;
};

export type Case = Candidate & { expectation: Expectation; url: string; request: InjectOptions };

/** Fastify's default maxParamLength: a longer path parameter is refused by the router itself (414). */
const MAX_PARAM_LENGTH = 100;

/** The same object keys, whichever zod wrapper (optional, nullable) holds the object. */
export function schemaKeys(schema: z.ZodType | undefined): string[] {
  let s: unknown = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
  return s instanceof z.ZodObject ? Object.keys(s.shape as object) : [];
}

/** What a URL carries of a string: lone surrogates become U+FFFD (String#toWellFormed, ES2024). */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const mapValues = <T, U>(o: Record<string, T>, f: (v: T) => U) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

/** Fastify's JSON parser: secure-json-parse drops a BOM and refuses prototype poisoning. */
function parseLikeFastify(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { ok: false };
  }
  // Iteratively, as deep documents are part of the bad input.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) return { ok: false };
    const ctor = (node as { constructor?: unknown }).constructor;
    if (
      Object.prototype.hasOwnProperty.call(node, 'constructor') &&
      ctor &&
      typeof ctor === 'object' &&
      Object.prototype.hasOwnProperty.call(ctor, 'prototype')
    ) {
      return { ok: false };
    }
    stack.push(...Object.values(node));
  }
  return { ok: true, value };
}

function payloadOf(c: Candidate): string | Buffer | undefined {
  if (c.rawPayload !== undefined) return c.rawPayload;
  return c.body === undefined ? undefined : JSON.stringify(c.body);
}

/** What the contract says: a request it refuses must be answered 4xx (which ones, by where it fails). */
export function judge(route: RouteEntry, c: Candidate): Expectation {
  if (c.expect) return c.expect;
  const statuses = new Set<number>();
  let routingUnknown = false;

  if (c.rawSegment) routingUnknown = true;
  else if (route.params) {
    const segments = Object.values(c.params).map((v) => encodeURIComponent(wellFormed(v)));
    // WHATWG URL parsing folds dot segments, and the router refuses long or empty parameters.
    if (segments.some((s) => s === '.' || s === '..' || s === '' || s.length > MAX_PARAM_LENGTH)) routingUnknown = true;
    if (!route.params.schema.safeParse(mapValues(c.params, wellFormed)).success) [400, 404].forEach((s) => statuses.add(s));
  }

  if (c.rawQuery !== undefined) routingUnknown = true;
  else if (route.query && !route.query.schema.safeParse(asReceived(c.query)).success) statuses.add(400);

  const payload = payloadOf(c);
  if (payload !== undefined && Buffer.byteLength(payload) > (route.bodyLimit ?? APP_LIMIT)) statuses.add(413);
  else if (route.body || payload !== undefined) {
    let value: unknown;
    let parsed = true;
    if (payload !== undefined) {
      const r = parseLikeFastify(Buffer.isBuffer(payload) ? payload.toString('utf8') : payload);
      if (r.ok) value = r.value;
      else parsed = false;
    }
    if (!parsed) statuses.add(400);
    else if (route.body && !route.body.schema.safeParse(value).success) statuses.add(400);
  }

  if (route.headers && !route.headers.schema.safeParse(c.headers).success) statuses.add(400);

  if (routingUnknown) return { kind: 'any' };
  return statuses.size > 0 ? { kind: 'reject', statuses: [...statuses].sort() } : { kind: 'any' };
}

/** The query as the server parses it: a repeated key is an array, a key without values is absent. */
function asReceived(q: Query | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(q ?? {})) {
    if (Array.isArray(v)) {
      if (v.length === 1) out[wellFormed(k)] = wellFormed(v[0]!);
      else if (v.length > 1) out[wellFormed(k)] = v.map(wellFormed);
    } else out[wellFormed(k)] = wellFormed(v);
  }
  return out;
}

function toQueryString(q: Query | undefined): string {
  if (!q) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q))
    for (const item of Array.isArray(v) ? v : [v]) sp.append(wellFormed(k), wellFormed(item));
  return sp.toString();
}

/** The inject options of a candidate. */
export function wire(route: RouteEntry, c: Candidate, cookie: string | undefined): InjectOptions {
  const segments = mapValues(c.params, (v) => encodeURIComponent(wellFormed(v)));
  if (c.rawSegment) segments[c.rawSegment.key] = c.rawSegment.raw;
  const query = c.rawQuery ?? toQueryString(c.query);
  const headers: Record<string, string> = { ...c.headers };
  if (cookie) headers.cookie = cookie;
  const payload = payloadOf(c);
  if (payload !== undefined && c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  return {
    method: route.method,
    url: fillPath(route.url, segments) + (query ? `?${query}` : ''),
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

/* ------------------------------------------------------------------------------------------------
 * Mutations of a valid request
 * ---------------------------------------------------------------------------------------------- */

const short = (v: unknown) => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 40)}…(${s.length} chars)` : s;
};

const EXTRA_KEYS = [
  'extra',
  'admin',
  'isAdmin',
  'userId',
  'role',
  'price',
  'status',
  '__proto__',
  'constructor',
  '',
  ' ',
  'a\u0000b',
];
const TEXT_CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'application/jsonx',
];
const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{a:1}',
  'NaN',
  'undefined',
  '{"a":1}x',
  '{}{}',
  '[',
  '"',
  'tru',
  '\u0000',
  '{"a":"\u0000"',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  '\uFEFF{}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '['.repeat(20_000),
  `{"x":${'9'.repeat(400)}}`,
  '{"x":1e999}',
  '{"x":-0}',
];

/** Builds every mutation that applies to the route, from one valid request. */
function mutations(
  route: RouteEntry,
  v: Candidate,
  extraHeaders: Record<string, fc.Arbitrary<string>>,
): fc.Arbitrary<Candidate>[] {
  const out: fc.Arbitrary<Candidate>[] = [];
  const add = (arb: fc.Arbitrary<Candidate>) => out.push(arb);
  const unsafe = route.method !== 'GET';

  // Body
  if (route.body) {
    const body = v.body && typeof v.body === 'object' && !Array.isArray(v.body) ? (v.body as Record<string, unknown>) : {};
    const keys = [...new Set([...Object.keys(body), ...schemaKeys(route.body.schema)])];
    const present = Object.keys(body);
    const setKey = (label: string, value: fc.Arbitrary<unknown>, keyPool = keys) =>
      keyPool.length > 0 &&
      add(
        fc.tuple(fc.constantFrom(...keyPool), value).map(([k, val]) => ({
          ...v,
          label: `body ${label}: ${k} = ${short(val)}`,
          body: { ...body, [k]: val },
        })),
      );
    setKey('wrong type', wrongTyped);
    setKey('huge string', fc.constant('x'.repeat(HUGE)));
    setKey('long string', longText(100, 12_000));
    setKey('odd text', oddText);
    setKey('control characters', fc.constantFrom('\u0000', 'a\u0000b', '\u0000\u0000', '\u0007', '\u001b[2J', '\r\n', '\u007f'));
    const strings = present.filter((k) => typeof body[k] === 'string');
    if (strings.length > 0) {
      add(
        fc.tuple(fc.constantFrom(...strings), oddText, fc.boolean()).map(([k, odd, before]) => ({
          ...v,
          label: `body odd text ${before ? 'before' : 'after'} a valid ${k}: ${short(odd)}`,
          body: { ...body, [k]: before ? odd + String(body[k]) : String(body[k]) + odd },
        })),
      );
    }
    if (present.length > 0) {
      add(
        fc.constantFrom(...present).map((k) => {
          const { [k]: _dropped, ...rest } = body;
          return { ...v, label: `body missing ${k}`, body: rest };
        }),
      );
    }
    add(
      fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.jsonValue({ maxDepth: 2 })).map(([k, val]) => ({
        ...v,
        label: `body extra field ${JSON.stringify(k)}`,
        body: { ...body, [k]: val },
      })),
    );
    add(wrongTyped.map((val) => ({ ...v, label: `body is ${short(val)}`, body: val })));
    add(
      fc.integer({ min: 50, max: 3000 }).map((depth) => {
        let nested: unknown = 1;
        for (let i = 0; i < depth; i++) nested = { a: nested };
        return { ...v, label: `body nested ${depth} deep`, body: keys.length > 0 ? { ...body, [keys[0]!]: nested } : nested };
      }),
    );
    add(
      fc.tuple(fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), wrongTyped).map(([k, val]) => {
        // Duplicate keys: JSON.parse keeps the last one, so the oracle sees what the server sees.
        const text = JSON.stringify(body ?? {});
        const inner = text.slice(1, -1);
        const dup = `{${inner}${inner ? ',' : ''}${JSON.stringify(k)}:${JSON.stringify(val) ?? 'null'}}`;
        return { ...v, label: `body duplicate key ${k}`, rawPayload: dup };
      }),
    );
  }

  // Transport: content types, malformed JSON, oversized bodies, cross-site requests.
  if (unsafe && route.access !== 'webhook') {
    const json = JSON.stringify(v.body ?? {});
    add(
      fc.constantFrom(...TEXT_CONTENT_TYPES).map((ct) => ({
        ...v,
        label: `body sent as ${ct}`,
        rawPayload: ct.startsWith('application/x-www') ? 'a=1&b=2' : json,
        contentType: ct,
        expect: { kind: 'reject', statuses: [415] },
      })),
    );
    add(
      fc.constant({
        ...v,
        label: 'body without a content type',
        rawPayload: json,
        contentType: null,
        expect: { kind: 'reject', statuses: [415] },
      }),
    );
    add(fc.constantFrom(...MALFORMED_JSON).map((text) => ({ ...v, label: `malformed JSON ${short(text)}`, rawPayload: text })));
    add(
      fc.constant({
        ...v,
        label: 'body of invalid UTF-8',
        rawPayload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      }),
    );
    add(
      fc
        .constantFrom(
          ...[
            'application/json; charset=utf-8',
            'APPLICATION/JSON',
            'application/json;charset=latin1',
            'application/json; foo=bar',
          ],
        )
        .map((ct) => ({ ...v, label: `valid body as ${ct}`, rawPayload: json, contentType: ct })),
    );
    add(fc.constant({ ...v, label: 'body of 100 KB', rawPayload: JSON.stringify({ x: 'x'.repeat(HUGE) }) }));
    add(
      fc
        .constantFrom<Record<string, string>>(
          { 'sec-fetch-site': 'cross-site' },
          { origin: 'https://evil.example' },
          { origin: 'null' },
          { origin: 'http://localhost:3000.evil.example' },
        )
        .map((h) => ({
          ...v,
          label: `cross-site ${JSON.stringify(h)}`,
          headers: { ...v.headers, ...h },
          expect: { kind: 'reject', statuses: [403] },
        })),
    );
  }

  // Query
  if (route.query) {
    const q = v.query ?? {};
    const keys = [...new Set([...Object.keys(q), ...schemaKeys(route.query.schema)])];
    const setKey = (label: string, value: fc.Arbitrary<string | string[]>) =>
      keys.length > 0 &&
      add(
        fc
          .tuple(fc.constantFrom(...keys), value)
          .map(([k, val]) => ({ ...v, label: `query ${label}: ${k}=${short(val)}`, query: { ...q, [k]: val } })),
      );
    setKey('odd number', oddNumberText);
    setKey('odd text', oddText);
    setKey('huge', fc.constant('9'.repeat(HUGE)));
    setKey(
      'duplicate key',
      fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => [a, b]),
    );
    setKey('array', fc.array(oddNumberText, { minLength: 0, maxLength: 4 }));
    add(
      fc
        .tuple(
          fc.constantFrom('x', 'admin', 'page[]', 'size[0]', '__proto__', 'constructor', '', 'a\u0000'),
          fc.string({ maxLength: 8 }),
        )
        .map(([k, val]) => ({ ...v, label: `query extra key ${JSON.stringify(k)}`, query: { ...q, [k]: val } })),
    );
    if (Object.keys(q).length > 0) {
      add(
        fc.constantFrom(...Object.keys(q)).map((k) => {
          const { [k]: _dropped, ...rest } = q;
          return { ...v, label: `query missing ${k}`, query: rest };
        }),
      );
    }
    add(fc.constantFrom(...RAW_QUERIES).map((raw) => ({ ...v, label: `raw query ${short(raw)}`, rawQuery: raw })));
  }

  // Path parameters
  if (route.params) {
    const keys = Object.keys(v.params);
    const setKey = (label: string, value: fc.Arbitrary<string>) =>
      add(
        fc
          .tuple(fc.constantFrom(...keys), value)
          .map(([k, val]) => ({ ...v, label: `path ${label}: ${k}=${short(val)}`, params: { ...v.params, [k]: val } })),
      );
    setKey('odd text', oddText);
    setKey(
      'wrong format',
      fc.oneof(
        fc.string({ maxLength: 30 }),
        wrongTyped.map((x) => JSON.stringify(x) ?? ''),
      ),
    );
    setKey(
      'long',
      fc.constantFrom(99, 100, 101, 255, 256, 300, 5000).map((n) => 'A'.repeat(n)),
    );
    setKey('empty', fc.constant(''));
    setKey(
      'variant of a valid value',
      fc.tuple(fc.constantFrom(...keys), fc.constantFrom('lower', 'spaces', 'no-dashes', 'nul', 'rtl')).map(([k, how]) => {
        const s = v.params[k] ?? '';
        return how === 'lower'
          ? s.toLowerCase()
          : how === 'spaces'
            ? ` ${s} `
            : how === 'no-dashes'
              ? s.replaceAll('-', '')
              : how === 'nul'
                ? `${s}\u0000`
                : `\u202E${s}`;
      }),
    );
    add(
      fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...RAW_SEGMENTS)).map(([k, raw]) => ({
        ...v,
        label: `raw path segment ${k}=${short(raw)}`,
        rawSegment: { key: k, raw },
      })),
    );
  }

  // Headers of the contract (Idempotency-Key) and headers the handler reads (Range, If-Range...).
  if (route.headers) {
    const keys = schemaKeys(route.headers.schema);
    add(
      fc
        .tuple(
          fc.constantFrom(...keys),
          fc.oneof(fc.stringMatching(/^[\x20-\x7e]{0,20}$/), fc.constantFrom('', 'a'.repeat(300), 'short', 'bad/char/12345')),
        )
        .map(([k, val]) => ({ ...v, label: `header ${k}: ${short(val)}`, headers: { ...v.headers, [k]: val } })),
    );
  }
  for (const [name, arb] of Object.entries(extraHeaders)) {
    add(arb.map((val) => ({ ...v, label: `header ${name}: ${short(val)}`, headers: { ...v.headers, [name]: val } })));
  }
  return out;
}

/** A valid request of the route, from its parts' generators. */
export function validCandidate(route: RouteEntry, ids: FuzzIds): fc.Arbitrary<Candidate> {
  const none = fc.constant(undefined);
  return fc
    .record({
      params: route.params ? route.params.valid(ids) : fc.constant({}),
      query: route.query ? route.query.valid(ids) : none,
      body: route.body ? route.body.valid(ids) : none,
      headers: route.headers ? route.headers.valid(ids) : fc.constant({}),
    })
    .map((r) => ({
      label: 'valid',
      params: r.params as Record<string, string>,
      query: r.query as Query | undefined,
      body: r.body,
      headers: r.headers as Record<string, string>,
    }));
}

export function badRequests(route: RouteEntry, ids: FuzzIds, extraHeaders: Record<string, fc.Arbitrary<string>> = {}) {
  return validCandidate(route, ids).chain((v) => {
    const ms = mutations(route, v, extraHeaders);
    if (ms.length === 0) throw new Error(`${routeId(route)} takes no input to mutate`);
    return fc.oneof(...ms);
  });
}

/* ------------------------------------------------------------------------------------------------
 * The property
 * ---------------------------------------------------------------------------------------------- */

export type FuzzTarget = {
  t: TestApp;
  /** The fuzzing customer's session, sent to session and owner routes. */
  cookie: string;
  ids: FuzzIds;
};

/**
 * Never 5xx; every 4xx is the error shape and leaves the database exactly as it was; a request the
 * contract refuses is answered 4xx (400 for bad input, 413 too large, 415 not JSON, 403 cross-site).
 */
export async function checkRoute(
  target: FuzzTarget,
  route: RouteEntry,
  opts: {
    numRuns?: number;
    extraHeaders?: Record<string, fc.Arbitrary<string>>;
    /** Route-specific checks of every answer (redirect targets, for example); throw to fail. */
    check?: (c: Case, res: Awaited<ReturnType<TestApp['app']['inject']>>) => void;
  } = {},
) {
  const { t, ids } = target;
  const reader = await dbStateReader(t);
  const cookie = route.access === 'session' || route.access === 'owner' ? target.cookie : undefined;
  const cases = badRequests(route, ids, opts.extraHeaders).map((c): Case => {
    const expectation = judge(route, c);
    const request = wire(route, c, cookie);
    return { ...c, expectation, url: request.url as string, request };
  });

  const excused = new Map<string, number>();
  // Each run starts from the state the previous one left (settled): one fingerprint per request.
  await settle(t);
  let state = await reader.read();
  const property = fc.asyncProperty(cases, async (c) => {
    // A destructive route (account deletion) is only sent what the contract refuses.
    if (route.destructive) fc.pre(c.expectation.kind === 'reject');
    const before = state;
    const res = await t.app.inject(c.request);
    // Accepted requests may leave work behind (e-mails, last-seen times): let it land first.
    if (res.statusCode < 400) await settle(t);
    state = await reader.read();
    const what = `${c.label}\n  ${c.request.method} ${short(c.url)} -> ${res.statusCode} ${short(res.body)}`;
    const bug = knownBug({ url: c.url, payload: c.request.payload }, res);
    if (bug) {
      excused.set(bug.id, (excused.get(bug.id) ?? 0) + 1);
      return;
    }
    if (res.statusCode >= 500) throw new Error(`server error: ${what}`);
    if (res.statusCode >= 400) {
      let parsed: unknown;
      try {
        parsed = res.json();
      } catch {
        throw new Error(`error answer is not JSON: ${what}`);
      }
      const shape = ErrorBodySchema.safeParse(parsed);
      if (!shape.success) throw new Error(`error answer is not { message, code, issues? }: ${what}\n  ${shape.error.message}`);
      if (!String(res.headers['content-type']).startsWith('application/json'))
        throw new Error(`error answer is not JSON-typed: ${what}`);
      const changed = changedTables(before, state);
      if (changed.length > 0) throw new Error(`a refused request changed the database: ${changed.join(', ')}\n  ${what}`);
    }
    if (c.expectation.kind === 'reject' && !c.expectation.statuses.includes(res.statusCode)) {
      throw new Error(`expected ${c.expectation.statuses.join(' or ')}: ${what}`);
    }
    opts.check?.(c, res);
  });

  await fc.assert(property, {
    seed: SEED,
    numRuns: opts.numRuns ?? RUNS,
    // FUZZ_PATH replays one counterexample (with FUZZ_SEED, and vitest -t naming the route).
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    // Shrinking would replay requests against a database that has moved on: report the first failure.
    endOnFailure: true,
    reporter: (details) => {
      if (details.failed) {
        throw new Error(
          `${routeId(route)}: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n` +
            `  counterexample: ${fc.stringify(details.counterexample?.[0] ? (details.counterexample[0] as Case).label : null)}\n` +
            `  replay with FUZZ_SEED=${details.seed} (path ${details.counterexamplePath ?? '-'}), ${details.numRuns} runs`,
        );
      }
    },
  });
  if (excused.size > 0) {
    console.info(
      `${routeId(route)}: answers excused as known bugs (known-bugs.ts): ${[...excused].map(([id, n]) => `${id} x${n}`).join(', ')}`,
    );
  }
}

/** The routes one bad-input file fuzzes. */
export const fuzzedRoutes = (group: FuzzGroup, billing: 'local' | 'stripe' = 'local') =>
  ROUTES.filter((r) => r.fuzz === group && (!r.billing || r.billing === billing)).map((r) => [routeId(r), r] as const);
