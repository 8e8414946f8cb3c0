import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccountExportSchema,
  AuditEventPageSchema,
  DeleteAccountQuerySchema,
  ErrorSchema,
  OnboardingBodySchema,
  PageQuerySchema,
  UpdateProfileBodySchema,
  UserResponseSchema,
} from '@portal/contract';
import type { AppContext } from '../../app-context';
import { toSessionUser } from './users.service';

const SMALL_BODY = 16 * 1024;

export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { services, guard, cookie, config } = ctx;
  // Signed out answers 401 before the input is looked at.
  const signedIn = async (req: FastifyRequest) => {
    await guard.requireUser(req);
  };

  r.post(
    '/users/onboarding',
    {
      bodyLimit: SMALL_BODY,
      schema: {
        tags: ['users'],
        summary: 'Complete onboarding with the name (and company)',
        body: OnboardingBodySchema,
        response: { 200: UserResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (req) => {
      const auth = await guard.requireUser(req);
      const user = await services.users.completeOnboarding(auth.user.id, req.body);
      return { user: toSessionUser(user) };
    },
  );

  r.patch(
    '/users/profile',
    {
      preValidation: signedIn,
      bodyLimit: SMALL_BODY,
      schema: {
        tags: ['users'],
        summary: 'Change the name and company (an omitted company is kept, an empty one cleared)',
        body: UpdateProfileBodySchema,
        response: { 200: UserResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (req) => {
      const auth = await guard.requireUser(req);
      const user = await services.users.updateProfile(auth.user.id, req.body);
      return { user: toSessionUser(user) };
    },
  );

  r.get(
    '/users/activity',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        summary: 'The activity log of the signed-in user, newest first',
        querystring: PageQuerySchema,
        response: { 200: AuditEventPageSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (req) => {
      const auth = await guard.requireUser(req);
      return services.account.listActivity(auth.user.id, req.query.page, req.query.size);
    },
  );

  r.get(
    '/users/export',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        summary: 'Download everything the portal holds about the signed-in user, as JSON',
        response: { 200: AccountExportSchema, 401: ErrorSchema },
      },
    },
    async (req, reply) => {
      const auth = await guard.requireUser(req);
      const data = await services.account.exportData(auth.user.id, auth.idHash);
      const day = data.exportedAt.slice(0, 10);
      const brand =
        config.brand.name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'portal';
      reply.header('content-disposition', `attachment; filename="${brand}-account-export-${day}.json"`);
      return data;
    },
  );

  // The documented path has a trailing slash (see ALIASES in plugins/openapi-operations.ts); both forms are served.
  for (const url of ['/users/', '/users']) {
    r.delete(
      url,
      {
        preValidation: signedIn,
        schema: {
          tags: ['users'],
          summary: 'Delete the account: subscriptions cancelled now, licenses revoked, personal data erased, signed out',
          querystring: DeleteAccountQuerySchema,
          response: { 400: ErrorSchema, 401: ErrorSchema },
        },
      },
      async (req, reply) => {
        const auth = await guard.requireUser(req);
        await services.account.deleteAccount({ userId: auth.user.id, sessionCreatedAt: auth.createdAt });
        cookie.clear(reply);
        return (reply as FastifyReply).status(204).send();
      },
    );
  }
}
