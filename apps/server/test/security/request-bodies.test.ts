import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';
import { routeId, routesFor } from '../fuzz/routes';

/**
 * Issue 14, item 4: bodies only where a route takes one, small limits everywhere but the webhook,
 * and the session checked before a body is parsed. "Not parsed" is observed directly: Fastify's
 * JSON parser ends in JSON.parse, which must never see the request's body text.
 */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.signIn('bodies@example.com');
});
afterAll(() => t.close());

/** A JSON array nested as deeply as `bytes` allows: `[[[…]]]`. */
const nestedArray = (bytes: number) => '['.repeat(Math.floor(bytes / 2)) + ']'.repeat(Math.floor(bytes / 2));
const MIB = 1024 * 1024;

let parse: ReturnType<typeof vi.spyOn>;
const bodiesParsed = (minLength: number) =>
  parse.mock.calls.filter(([text]: unknown[]) => typeof text === 'string' && text.length >= minLength).length;
beforeAll(() => {
  parse = vi.spyOn(JSON, 'parse');
});
afterEach(() => parse.mockClear());
afterAll(() => parse.mockRestore());

const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload });

describe('a route that takes no body (DELETE /api/billing/methods/{id})', () => {
  const url = '/api/billing/methods/pm_does_not_exist';

  it('answers 401 to a signed-out 1 MiB nested array without parsing it', async () => {
    const res = await send('DELETE', url, nestedArray(MIB - 16));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please sign in to continue', code: 'UNAUTHENTICATED' });
    expect(bodiesParsed(1000)).toBe(0);
  });

  it('answers 413 to a signed-in 1 MiB body without parsing it', async () => {
    const res = await send('DELETE', url, nestedArray(MIB - 16), { cookie });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    expect(bodiesParsed(1000)).toBe(0);
  });

  it('refuses a small JSON body (400) without parsing it, and a non-JSON one with 415', async () => {
    const small = await send('DELETE', url, nestedArray(8000), { cookie });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toEqual({ message: 'This request takes no body: send it without one', code: 'BAD_REQUEST' });
    expect(bodiesParsed(1000)).toBe(0);
    const text = await send('DELETE', url, 'hello', { cookie, 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
  });

  it('takes an empty JSON object as no body, as clients that always send one expect', async () => {
    const res = await send('DELETE', url, '{}', { cookie });
    expect(res.statusCode).toBe(404);
  });

  it('answers as before without a body', async () => {
    const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie } });
    expect(res.statusCode).toBe(404);
  });
});

describe('a signed-in route that takes a body (POST /api/users/onboarding)', () => {
  it('answers 401 to a signed-out body within the limit without parsing it', async () => {
    const res = await send('POST', '/api/users/onboarding', nestedArray(15 * 1024));
    expect(res.statusCode).toBe(401);
    expect(bodiesParsed(1000)).toBe(0);
  });

  it('answers 413 to a signed-in body over 16 KiB', async () => {
    const res = await send('POST', '/api/users/onboarding', JSON.stringify({ fname: 'A'.repeat(17 * 1024), lname: 'B' }), {
      cookie,
    });
    expect(res.statusCode).toBe(413);
    expect(bodiesParsed(1000)).toBe(0);
  });

  it('still parses and validates a signed-in body', async () => {
    const body = JSON.stringify({ fname: 'Ann', lname: 'Other' });
    const res = await send('POST', '/api/users/onboarding', body, { cookie });
    expect(res.statusCode).toBe(200);
    // The observation works: the parser's JSON.parse saw this body.
    expect(parse.mock.calls.some(([text]: unknown[]) => text === body)).toBe(true);
  });
});

describe('every route that needs a session', () => {
  const unsafe = routesFor('local').filter(
    (r) => (r.access === 'session' || r.access === 'owner') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
  );

  it('is listed (the table is the same one the authorization matrix uses)', () => {
    expect(unsafe.length).toBeGreaterThan(8);
  });

  it.each(unsafe.map((r) => [routeId(r), r] as const))(
    '%s answers 401 to a signed-out nested body without parsing it',
    async (_id, route) => {
      const url = route.url.replace(/:[A-Za-z]+/g, 'x');
      const res = await send(route.method as 'POST', url, nestedArray(12 * 1024));
      expect(res.statusCode).toBe(401);
      expect(bodiesParsed(1000)).toBe(0);
    },
  );
});

describe('public routes keep their answers', () => {
  it('POST /api/auth/link still takes its body, up to 16 KiB', async () => {
    expect((await send('POST', '/api/auth/link', JSON.stringify({ email: 'public@example.com' }))).statusCode).toBe(202);
    expect((await send('POST', '/api/auth/link', JSON.stringify({ email: 'x'.repeat(17 * 1024) }))).statusCode).toBe(413);
  });

  it('the license routes still take a body without a session', async () => {
    const res = await send('POST', `/api/licenses/${'A'.repeat(20)}/validate`, JSON.stringify({ nonce: 'n' }));
    expect(res.statusCode).not.toBe(401);
    expect(res.statusCode).not.toBe(413);
  });
});
