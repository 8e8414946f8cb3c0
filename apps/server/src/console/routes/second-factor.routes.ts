import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import {
  AddFactorResponseSchema,
  AddPasskeyBodySchema,
  AddTotpBodySchema,
  CheckCodeBodySchema,
  CheckPasskeyBodySchema,
  ConsoleMeSchema,
  ErrorSchema,
  FactorParamsSchema,
  RecoveryCodesSchema,
  StaffFactorListSchema,
  TotpEnrollmentSchema,
  WebAuthnOptionsSchema,
} from '@portal/contract';
import type { RateLimit } from '../../plugins/rate-limit';
import type { StaffFactors } from '../staff-factors';
import { at, guardedResponses } from '../staff-guard';

/**
 * Attempts at a second factor per member and minute, whatever RATE_LIMIT_AUTH says: a six-digit
 * code must not be guessable, so this limit is not a setting that turns off.
 */
export const SECOND_FACTOR_ATTEMPTS_PER_MINUTE = 5;

const answers = { 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema, ...guardedResponses } as const;

/**
 * The signed-in member's own second factors (the Security page) and the check after the e-mailed
 * link. The staff guard decides which of these a session still short of its factor may call.
 */
export async function secondFactorRoutes(
  app: FastifyInstance,
  { factors, rateLimit }: { factors: StaffFactors; rateLimit: RateLimit },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const session = (req: FastifyRequest) => req.staffSession!;
  const limitAttempts = (req: FastifyRequest) =>
    rateLimit(
      `console:second-factor:${session(req).staff.id}`,
      SECOND_FACTOR_ATTEMPTS_PER_MINUTE,
      'Too many attempts at a second factor.',
    );
  /** The session as it stands after a check passed: it may act. */
  const meAfter = (req: FastifyRequest) => {
    const s = session(req);
    return {
      staff: { id: s.staff.id, email: s.staff.email, role: s.staff.role },
      secondFactor: { ...s.secondFactor, state: 'ok' as const },
    };
  };

  r.route({
    ...at('startPasskeyCheck'),
    schema: {
      summary: 'Options of the passkey check after the e-mailed link',
      response: { 200: WebAuthnOptionsSchema, ...answers },
    },
    handler: async (req) => factors.startPasskeyCheck(session(req)),
  });
  r.route({
    ...at('checkPasskey'),
    schema: {
      summary: "Check the browser's passkey answer: the session may act",
      body: CheckPasskeyBodySchema,
      response: { 200: ConsoleMeSchema, ...answers },
    },
    handler: async (req) => {
      await limitAttempts(req);
      await factors.checkPasskey(session(req), req.body.response as unknown as AuthenticationResponseJSON);
      return meAfter(req);
    },
  });
  r.route({
    ...at('checkCode'),
    schema: {
      summary: 'Check a code of the authenticator app (each accepted once) or a recovery code (single use)',
      body: CheckCodeBodySchema,
      response: { 200: ConsoleMeSchema, ...answers },
    },
    handler: async (req) => {
      await limitAttempts(req);
      await factors.checkCode(session(req), req.body.code);
      return meAfter(req);
    },
  });

  r.route({
    ...at('listFactors'),
    schema: { summary: "The signed-in member's second factors", response: { 200: StaffFactorListSchema, ...guardedResponses } },
    handler: async (req) => factors.listFactors(session(req)),
  });
  r.route({
    ...at('startPasskeyRegistration'),
    schema: { summary: 'Options to create a passkey for the console', response: { 200: WebAuthnOptionsSchema, ...answers } },
    handler: async (req) => factors.startPasskeyRegistration(session(req)),
  });
  r.route({
    ...at('addPasskey'),
    schema: {
      summary: 'Keep the passkey the browser created (recovery codes come with the first factor)',
      body: AddPasskeyBodySchema,
      response: { 201: AddFactorResponseSchema, ...answers },
    },
    handler: async (req, reply) => {
      await limitAttempts(req);
      const added = await factors.addPasskey(
        session(req),
        req.body.label,
        req.body.response as unknown as RegistrationResponseJSON,
      );
      return reply.status(201).send(added);
    },
  });
  r.route({
    ...at('startTotpEnrollment'),
    schema: {
      summary: 'A new authenticator-app secret, shown this once (a code confirms it)',
      response: { 200: TotpEnrollmentSchema, ...answers },
    },
    handler: async (req) => factors.startTotpEnrollment(session(req)),
  });
  r.route({
    ...at('addTotp'),
    schema: {
      summary: 'Keep the authenticator app once its code matches (recovery codes come with the first factor)',
      body: AddTotpBodySchema,
      response: { 201: AddFactorResponseSchema, ...answers },
    },
    handler: async (req, reply) => {
      await limitAttempts(req);
      return reply.status(201).send(await factors.addTotp(session(req), req.body.label, req.body.code));
    },
  });
  r.route({
    ...at('removeFactor'),
    schema: {
      summary: 'Remove one of your second factors (a role that requires one keeps at least one)',
      params: FactorParamsSchema,
      response: { 204: z.null(), 404: ErrorSchema, ...answers },
    },
    handler: async (req, reply) => {
      await factors.removeFactor(session(req), req.params.factorId);
      return reply.status(204).send(null);
    },
  });
  r.route({
    ...at('regenerateRecoveryCodes'),
    schema: {
      summary: 'New recovery codes, shown once (the old ones stop working)',
      response: { 200: RecoveryCodesSchema, ...answers },
    },
    handler: async (req) => factors.regenerateRecoveryCodes(session(req)),
  });
}
