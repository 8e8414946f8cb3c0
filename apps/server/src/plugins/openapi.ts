import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_TOKEN_PREFIX } from '@portal/contract';
import type { Config } from '../config';
import { ALIASES, API_TAGS, OPERATIONS } from './openapi-operations';
import type { RouteAuth } from './session';
import { scopeOf } from './token-scopes';

/** Where the API reference is served; its document is at `${DOCS_PREFIX}/json`. */
export const DOCS_PREFIX = '/api/docs';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  responses?: Record<string, unknown>;
};
type Document = { paths?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/**
 * Names every operation of the generated document from the table in openapi-operations.ts: its
 * operationId, its tag, a description (the route's summary where it has no longer text) and a
 * success answer where the route's schema declares none. The second spelling of a trailing-slash
 * path is left out. Only the document changes: the routes' validation and answers do not.
 */
export function nameOperations(document: Document): Document {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [url, item] of Object.entries(document.paths ?? {})) {
    const named: Record<string, unknown> = { ...item };
    let kept = 0;
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${url}`;
      if (ALIASES[key]) {
        delete named[method];
        continue;
      }
      kept++;
      const name = OPERATIONS[key];
      // Unnamed routes stay as they are, so the test that every operation has a name fails.
      if (!name) continue;
      const responses = { ...operation.responses };
      const hasSuccess = Object.keys(responses).some((code) => /^[23]\d\d$/.test(code));
      if (!hasSuccess && name.success) {
        const [status, description] = name.success;
        responses[String(status)] = { description };
      }
      // GET and HEAD of one route share one object: each gets its own copy and its own name.
      named[method] = {
        ...operation,
        operationId: name.operationId,
        tags: [name.tag],
        description: operation.description ?? operation.summary,
        responses,
      };
    }
    if (kept > 0) paths[url] = named;
  }
  return { ...document, paths };
}

/**
 * Who may call a route, as the document says it: a route that needs a user takes the session
 * cookie, and a personal API token too when ROUTE_SCOPES gives it a scope (which the operation
 * names in `x-api-token-scope` and its description: OpenAPI lists scopes for OAuth schemes
 * only); `optional` adds the empty requirement; public routes have none.
 */
export function securityOf(
  auth: RouteAuth | undefined,
  method: string,
  url: string,
): { security: Array<Record<string, string[]>>; scope?: string } | undefined {
  if (auth === undefined) return undefined;
  if (auth === 'optional') return { security: [{}, { session: [] }] };
  const scope = scopeOf(method, url);
  return scope ? { security: [{ session: [] }, { apiToken: [] }], scope } : { security: [{ session: [] }] };
}

/** The OpenAPI document (generated from the routes' zod schemas) and its reference page. */
export async function registerOpenApi(app: FastifyInstance, config: Config) {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${config.brand.name} API`,
        version: '1.0.0',
        description: 'The customer portal API. Errors answer { message, code, issues? }.',
        contact: { name: `${config.brand.name} support`, email: config.support.email },
      },
      servers: [{ url: config.publicUrl }],
      tags: [...API_TAGS],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'portal_session',
            description: 'The session after signing in (`__Host-portal_session` when the portal is served over https)',
          },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: `${API_TOKEN_PREFIX}…`,
            description: 'A personal API token (Profile → API tokens); each operation names the scope it needs',
          },
        },
      },
    },
    transform: (args) => {
      const generated = jsonSchemaTransform(args) as { schema: Record<string, unknown>; url: string };
      const auth = (args.route.config as { auth?: RouteAuth } | undefined)?.auth;
      const access = securityOf(auth, String([args.route.method].flat()[0]), args.url);
      if (!access) return generated;
      const { summary } = generated.schema as { summary?: string };
      const byToken = access.scope && {
        'x-api-token-scope': access.scope,
        description: `${summary ?? ''}. A personal API token needs the scope ${access.scope}.`,
      };
      return { ...generated, schema: { ...generated.schema, security: access.security, ...byToken } };
    },
    transformObject: (generated) =>
      'openapiObject' in generated
        ? (nameOperations(generated.openapiObject as Document) as typeof generated.openapiObject)
        : generated.swaggerObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
}
