import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '@portal/contract';
import { ROUTE_SCOPES, routeKey } from '../../plugins/token-scopes';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { bearer, createToken } from '../../../test/api-token-helpers';
import { liveRoutes, type LiveRoute } from '../../../test/fuzz/route-list';

/**
 * The scope matrix, generated from the routes the portal really serves (every method, Fastify's
 * automatic HEAD routes included) and from what each declares (app.tokenAccess, which reads
 * ROUTE_SCOPES): for every route and every scope, a token is let through exactly where the table
 * maps the route to that scope, and then answers what the same request answers with a session;
 * anywhere else on a route that needs a user it is refused (403); a revoked token 401s on all of
 * them; public routes answer a token's request as they answer one without any credentials.
 */

let t: TestApp;
let cookie: string;
let licenseKey: string;
let served: LiveRoute[];
const tokens = {} as Record<ApiTokenScope, string>;
let revoked: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_API_TOKEN: '0' });
  cookie = await t.signIn('matrix@example.com');
  const user = await t.app.ctx.services.users.findByEmail(t.db, 'matrix@example.com');
  const issued = await t.app.ctx.services.licenses.issue(t.db, {
    userId: user!.id,
    subscriptionId: null,
    maxNodes: 3,
    expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
    actor: 'test',
  });
  licenseKey = issued.key;
  for (const scope of API_TOKEN_SCOPES) tokens[scope] = (await createToken(t, cookie, [scope])).secret;
  const gone = await createToken(t, cookie, [...API_TOKEN_SCOPES]);
  await t.app.inject({ method: 'DELETE', url: `/api/users/tokens/${gone.token.id}`, headers: { cookie } });
  revoked = gone.secret;
  served = liveRoutes(t.app).filter((r) => r.url.startsWith('/api/') && !r.url.includes('*'));
});
afterAll(() => t?.close());

const SAMPLE_PARAMS: Record<string, () => string> = {
  licenseKey: () => licenseKey,
  id: () => randomUUID(),
  stripeId: () => 'sub_matrix',
  filename: () => 'pce.iso',
};

function requestOf(r: LiveRoute, headers: Record<string, string>): InjectOptions {
  const url = r.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const sample = SAMPLE_PARAMS[name];
    if (!sample) throw new Error(`no sample for :${name} in ${r.url}`);
    return encodeURIComponent(sample());
  });
  const withBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  return { method: r.method as 'GET', url, headers, ...(withBody ? { payload: {} } : {}) };
}

const send = (r: LiveRoute, headers: Record<string, string> = {}) => t.app.inject(requestOf(r, headers));
const where = (r: LiveRoute, res: LightMyRequestResponse, who: string) =>
  `${r.method} ${r.url} with ${who}: ${res.statusCode} ${res.body}`;

describe('the scope matrix', () => {
  it('is generated from the live routes: each scoped route of the table is served, HEAD included', () => {
    const keys = new Set(served.map((r) => routeKey(r.method, r.url)));
    for (const key of Object.keys(ROUTE_SCOPES)) {
      const [method, path] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
      expect(keys.has(routeKey(method, path.replace(/\{([A-Za-z]+)\}/g, ':$1'))), key).toBe(true);
    }
    expect(served.some((r) => r.method === 'HEAD' && t.app.tokenAccess(r.method, r.url).scope === 'licenses:read')).toBe(true);
    expect(served.length).toBeGreaterThan(40);
  });

  it('lets each scope through exactly where the table maps it, and refuses it everywhere else', async () => {
    let allowed = 0;
    let refused = 0;
    for (const r of served) {
      const { auth, scope } = t.app.tokenAccess(r.method, r.url);
      if (!auth) continue;
      // Only scoped routes are compared with a session (logout, among the others, would end it).
      const asSession = scope ? await send(r, { cookie }) : undefined;
      for (const s of API_TOKEN_SCOPES) {
        const res = await send(r, bearer(tokens[s]));
        const what = where(r, res, s);
        if (scope === s) {
          allowed++;
          expect([401, 403], what).not.toContain(res.statusCode);
          expect(res.statusCode, `${what} (a session gets ${asSession?.statusCode})`).toBe(asSession?.statusCode);
        } else {
          refused++;
          expect(res.statusCode, what).toBe(403);
          if (scope) {
            expect(res.headers['www-authenticate'], what).toBe(
              `Bearer realm="portal-api", error="insufficient_scope", scope="${scope}"`,
            );
          } else {
            expect(res.headers['www-authenticate'], what).toBeUndefined();
          }
          if (r.method !== 'HEAD') {
            expect(res.json().message, what).toBe(
              scope
                ? `This API token does not have the scope ${scope}, which this needs.`
                : 'API tokens cannot be used for this. Sign in to the portal to do it.',
            );
          }
        }
      }
    }
    // Every mapped route with every method served, and every other scope on every guarded route.
    expect(allowed).toBe(served.filter((r) => t.app.tokenAccess(r.method, r.url).scope).length);
    expect(refused).toBeGreaterThan(allowed);
  });

  it('answers 401 to a revoked token on every route that needs a user', async () => {
    for (const r of served.filter((x) => t.app.tokenAccess(x.method, x.url).auth)) {
      const res = await send(r, bearer(revoked));
      expect(res.statusCode, where(r, res, 'a revoked token')).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="portal-api", error="invalid_token"');
    }
  });

  it('answers public routes as it answers them without credentials: a token neither helps nor hurts there', async () => {
    const open = served.filter((x) => !t.app.tokenAccess(x.method, x.url).auth);
    expect(open.map((r) => `${r.method} ${r.url}`)).toContain('POST /api/licenses/:licenseKey/activate');
    for (const r of open) {
      const anonymous = await send(r);
      for (const secret of [tokens['nodes:write'], revoked]) {
        const res = await send(r, bearer(secret));
        expect(res.statusCode, where(r, res, 'a token')).toBe(anonymous.statusCode);
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
    }
  });
});
