import type { ApiTokenScope } from '@portal/contract';

/**
 * The one table of what a personal API token may call: `METHOD path` (as the OpenAPI document and
 * OPERATIONS in openapi-operations.ts write it) → the scope it needs. HEAD reads as its GET. A
 * route that needs a session and is not here refuses every token (account deletion, cards,
 * checkout, the profile, the tokens themselves); public routes ignore credentials altogether.
 * token-auth.ts reads it; the app does not start when an entry names no route that needs a user.
 * docs/decisions/091-token-scopes-and-routes.md.
 */
export const ROUTE_SCOPES: Readonly<Record<string, ApiTokenScope>> = {
  'GET /api/licenses/': 'licenses:read',
  'GET /api/licenses/{licenseKey}/nodes': 'licenses:read',
  'GET /api/licenses/{licenseKey}/file': 'licenses:read',
  'GET /api/products/licenses': 'licenses:read',
  'DELETE /api/licenses/{licenseKey}/nodes/{id}': 'nodes:write',
  'GET /api/products/pce/download': 'downloads:read',
  'GET /api/downloads/iso': 'downloads:read',
  'GET /api/billing/subscriptions/': 'billing:read',
  'GET /api/billing/subscriptions/{stripeId}/invoices': 'billing:read',
  'GET /api/billing/invoices/{id}': 'billing:read',
};

/**
 * A route's key in ROUTE_SCOPES from its method and Fastify path: `:name` as `{name}`, HEAD as
 * GET, and without a trailing slash's difference (routes served with and without one are one).
 */
export function routeKey(method: string, url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
  return `${method === 'HEAD' ? 'GET' : method} ${path}`;
}

const BY_KEY = new Map(Object.entries(ROUTE_SCOPES).map(([key, scope]) => [routeKey(...splitKey(key)), scope]));

function splitKey(key: string): [string, string] {
  const at = key.indexOf(' ');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** The scope a route needs, or undefined when no token may call it. */
export const scopeOf = (method: string, url: string): ApiTokenScope | undefined => BY_KEY.get(routeKey(method, url));

/** The table's keys in routeKey() form (the start-up check compares them with the routes served). */
export const scopedRouteKeys = () => [...BY_KEY.keys()];
