import type { FastifyInstance, FastifyReply, FastifyRequest, LogLevel } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ActivateBodySchema,
  ActivateResponseSchema,
  ErrorSchema,
  LicenseFileSchema,
  LicenseKeyParamsSchema,
  LicensePageSchema,
  NodePageSchema,
  NodeParamsSchema,
  PageQuerySchema,
  PublicKeyResponseSchema,
  SIGNATURE_HEADER,
  ValidateBodySchema,
  ValidateResponseSchema,
  type ValidateResponse,
} from '@portal/contract';
import type { Config } from '../../config';
import { clientKey, type RateLimit } from '../../plugins/rate-limit';
import { signedIn } from '../../plugins/session';
import type { LicenseService } from './licenses.service';

export type LicensesRoutesDeps = {
  config: Pick<Config, 'rateLimits' | 'logLevel'>;
  licenses: LicenseService;
  rateLimit: RateLimit;
};

const LEVELS: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
/** A route's log level that drops per-request info lines: warn, or the configured level when stricter or at debug. */
export function quietLevel(level: string): LogLevel {
  const at = LEVELS.indexOf(level as LogLevel);
  return at < 0 || at <= LEVELS.indexOf('debug') || at > LEVELS.indexOf('warn') ? (level as LogLevel) : 'warn';
}

/**
 * Sends `value` as JSON serialized here, once: the Signature header must cover exactly the bytes
 * on the wire, so the serializer must not run again (a string with a JSON content type is sent as is).
 */
function sendJson<S extends z.ZodType>(reply: FastifyReply, status: number, schema: S, value: z.input<S>) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(schema.parse(value)));
}

export async function licensesRoutes(app: FastifyInstance, { config, licenses, rateLimit }: LicensesRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Every answer of activate and validate, errors included, is signed over its exact bytes. */
  const sign = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload === 'string' || Buffer.isBuffer(payload))
      reply.header(SIGNATURE_HEADER, await licenses.signatureHeader(payload));
    return payload;
  };

  /** Field machines hold only the key: limit each key and each client. */
  async function limitKeyHolder(req: FastifyRequest, key: string) {
    const perMinute = config.rateLimits.licensePerMinute;
    await rateLimit(`license:client:${clientKey(req)}`, perMinute, 'Too many license requests from this address.');
    await rateLimit(`license:key:${key}`, perMinute, 'Too many requests for this license key.');
  }

  // Buffered last-seen times must reach the database before it closes. The root onClose hook
  // closes it before a plugin's onClose runs, so flush in preClose; validations still finishing
  // after that write through at once (see close()).
  app.addHook('preClose', async () => {
    await licenses.close();
  });

  r.get(
    '/licenses/',
    signedIn({
      summary: 'The signed-in customer’s licenses, newest first',
      querystring: PageQuerySchema,
      response: { 200: LicensePageSchema, 400: ErrorSchema },
    }),
    async (req) => licenses.listLicenses(req.user.id, req.query.page, req.query.size),
  );

  r.get(
    '/licenses/public-key',
    {
      schema: {
        summary: 'The Ed25519 public key that verifies signed answers and license files',
        response: { 200: PublicKeyResponseSchema },
      },
    },
    async () => licenses.publicKey(),
  );

  r.get(
    '/licenses/:licenseKey/nodes',
    signedIn({
      summary: 'The nodes of one of the customer’s licenses, oldest activation first',
      params: LicenseKeyParamsSchema,
      querystring: PageQuerySchema,
      response: { 200: NodePageSchema, 400: ErrorSchema, 404: ErrorSchema },
    }),
    async (req) => licenses.listNodes(req.user.id, req.params.licenseKey, req.query.page, req.query.size),
  );

  r.delete(
    '/licenses/:licenseKey/nodes/:id',
    signedIn({
      summary: 'Release a node (a retired machine), so another can be activated in its place',
      params: NodeParamsSchema,
      response: { 400: ErrorSchema, 404: ErrorSchema },
    }),
    async (req, reply) => {
      await licenses.releaseNode(req.user.id, req.params.licenseKey, req.params.id, req.user.email);
      return (reply as FastifyReply).status(204).send();
    },
  );

  r.post(
    '/licenses/:licenseKey/activate',
    {
      onSend: sign,
      schema: {
        summary: 'Activate a node on a license (no session needed: the key is the credential); signed answer',
        params: LicenseKeyParamsSchema,
        body: ActivateBodySchema,
        response: {
          200: ActivateResponseSchema,
          201: ActivateResponseSchema,
          400: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (req, reply) => {
      await limitKeyHolder(req, req.params.licenseKey);
      const { created, answer } = await licenses.activate(req.params.licenseKey, req.body);
      return sendJson(reply, created ? 201 : 200, ActivateResponseSchema, answer);
    },
  );

  r.post(
    '/licenses/:licenseKey/validate',
    {
      // Every field machine calls this, forever: two info lines per call would be most of the log
      // and a good part of the time. Errors are still logged; LOG_LEVEL=debug logs every call.
      logLevel: quietLevel(config.logLevel),
      onSend: sign,
      schema: {
        summary: 'Check a key (and a node on it); 200 for every well-formed request; signed answer echoing the nonce',
        params: LicenseKeyParamsSchema,
        // A bare POST without a body checks the key alone.
        body: ValidateBodySchema.nullish(),
        response: { 200: ValidateResponseSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (req, reply) => {
      await limitKeyHolder(req, req.params.licenseKey);
      const answer: ValidateResponse = await licenses.validate(req.params.licenseKey, req.body ?? {});
      // The hot path: the answer is built by the service to its type, so it is not parsed again
      // (sendJson's parse); the contract's tests pin its shape.
      return (reply as FastifyReply).status(200).type('application/json; charset=utf-8').send(JSON.stringify(answer));
    },
  );

  r.get(
    '/licenses/:licenseKey/file',
    signedIn({
      summary: 'Download a signed license file for sites without access to the portal',
      params: LicenseKeyParamsSchema,
      response: { 200: LicenseFileSchema, 400: ErrorSchema, 404: ErrorSchema },
    }),
    async (req, reply) => {
      const file = await licenses.licenseFile(req.user.id, req.params.licenseKey);
      // Pretty-printed for people; the signature covers the canonical form of `license`, not these bytes.
      return (reply as FastifyReply)
        .header('content-disposition', `attachment; filename="license-${file.license.key}.json"`)
        .type('application/json; charset=utf-8')
        .send(`${JSON.stringify(LicenseFileSchema.parse(file), null, 2)}\n`);
    },
  );
}
