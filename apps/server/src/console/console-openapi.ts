import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  CONSOLE_API,
  CONSOLE_ROUTES,
  CONSOLE_SESSION_COOKIE,
  CONSOLE_SESSION_ONLY,
  STAFF_TOKEN_PREFIX,
  type ConsoleRouteId,
} from '@portal/contract';
import type { Config } from '../config';

/**
 * The console API's OpenAPI 3.1 document (docs/decisions/098-console-openapi-document.md),
 * generated from the console routes' zod schemas like the portal's (plugins/openapi.ts): each
 * operation's id is its id in CONSOLE_ROUTES, its tag the path's first segment, its security the
 * table's (public, a staff session, or a session or a staff API token).
 */

/** The document's tags: the first segment of a console path, in the order the reference lists them. */
export const CONSOLE_API_TAGS = [
  { name: 'auth', description: 'Staff sign-in, the current member, second factors' },
  { name: 'search', description: 'Search across customers, licenses, nodes, subscriptions and invoices' },
  { name: 'overview', description: 'Figures of the business' },
  { name: 'customers', description: "A customer's page, the customer list and actions on a customer" },
  { name: 'subscriptions', description: 'The subscription list and actions on subscriptions' },
  { name: 'licenses', description: 'The license list and actions on licenses and nodes' },
  { name: 'invoices', description: 'The invoice list, refunds and credit notes' },
  { name: 'reports', description: 'Reports for the books: the tax report of a period' },
  { name: 'audit', description: 'The staff audit log' },
  { name: 'staff', description: 'The staff and their roles (owners)' },
  { name: 'tokens', description: 'Staff API tokens (owners)' },
  { name: 'webhooks', description: 'Outbound webhook endpoints and their delivery log (owners)' },
  { name: 'docs', description: 'This document' },
] as const;
const TAG_NAMES = new Set<string>(CONSOLE_API_TAGS.map((t) => t.name));

/** The tag of a console path: `/api/console/licenses/:licenseKey/suspend` → `licenses`. */
export function consoleTagOf(path: string): string {
  const tag = path.slice(CONSOLE_API.length + 1).split('/')[0] ?? '';
  if (!TAG_NAMES.has(tag)) throw new Error(`${path}: add its first segment to CONSOLE_API_TAGS`);
  return tag;
}

/** Who may call a route, as the document says it: OpenAPI security requirements. */
export function consoleSecurityOf(id: ConsoleRouteId): Array<Record<string, string[]>> {
  if (CONSOLE_ROUTES[id].roles === null) return [];
  if (CONSOLE_SESSION_ONLY.includes(id)) return [{ staffSession: [] }];
  return [{ staffSession: [] }, { staffToken: [] }];
}

/** Success answers of routes whose schema declares none (redirects, documents that are not JSON). */
const SUCCESS: Partial<Record<ConsoleRouteId, readonly [number, string]>> = {
  googleStart: [302, 'To the identity provider'],
  googleCallback: [302, 'To the console, signed in, or to its sign-in page with ?error='],
  downloadInvoicePdf: [200, 'The invoice PDF (application/pdf), the same bytes the customer downloads'],
};

type Schema = Record<string, unknown> & { summary?: string; description?: string; response?: Record<string, unknown> };

export async function registerConsoleOpenApi(app: FastifyInstance, config: Config) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.brand.name} console API`,
        version: '1.0.0',
        description:
          "The vendor console's API, on the console's listener only. Errors answer { message, code, issues? }. " +
          `Scripts authenticate with a staff API token (\`Authorization: Bearer ${STAFF_TOKEN_PREFIX}…\`), which an owner creates in the console; ` +
          'every action needs a reason and is written to the staff audit log under the token’s name.',
        contact: { name: `${config.brand.name} support`, email: config.support.email },
      },
      servers: [{ url: config.console.publicUrl }],
      tags: [...CONSOLE_API_TAGS],
      components: {
        securitySchemes: {
          staffSession: {
            type: 'apiKey',
            in: 'cookie',
            name: CONSOLE_SESSION_COOKIE,
            description: 'The console’s session, after signing in with an e-mailed link or Google',
          },
          staffToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: `${STAFF_TOKEN_PREFIX}…`,
            description: 'A staff API token: acts with its one staff role; never on staff, tokens or second factors',
          },
        },
      },
    },
    transform: (args) => {
      const generated = jsonSchemaTransform(args) as { schema: Schema; url: string };
      const id = (args.route.config as { consoleRoute?: ConsoleRouteId } | undefined)?.consoleRoute;
      if (!id) return generated;
      const schema: Schema = { ...generated.schema };
      const response = { ...schema.response };
      const success = SUCCESS[id];
      if (success && !Object.keys(response).some((c) => /^[23]\d\d$/.test(c))) {
        response[String(success[0])] = { description: success[1] };
      }
      return {
        url: generated.url,
        schema: {
          ...schema,
          response,
          operationId: id,
          tags: [consoleTagOf(CONSOLE_ROUTES[id].path)],
          description: schema.description ?? schema.summary,
          security: consoleSecurityOf(id),
        },
      };
    },
  });
}
