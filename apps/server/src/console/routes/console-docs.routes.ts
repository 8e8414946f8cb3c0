import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { at, guardedResponses } from '../staff-guard';

/** The parts of an OpenAPI document the answer is checked for; the rest passes as generated. */
const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The console API's OpenAPI document (console-openapi.ts), for any staff session or token. */
export async function consoleDocsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...at('getConsoleApiDocs'),
    schema: {
      summary: "The console API's OpenAPI 3.1 document (this document)",
      response: { 200: OpenApiDocumentSchema, ...guardedResponses },
    },
    handler: async () => app.swagger() as z.infer<typeof OpenApiDocumentSchema>,
  });
}
