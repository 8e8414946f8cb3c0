import type { FastifyInstance, FastifyReply } from 'fastify';
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
import type { Config } from '../../config';
import { signedIn, type SessionCookie } from '../../plugins/session';
import type { AccountService } from './account.service';
import { toSessionUser, type UserService } from './users.service';

export type UsersRoutesDeps = {
  config: Pick<Config, 'brand'>;
  users: Pick<UserService, 'completeOnboarding' | 'updateProfile'>;
  account: Pick<AccountService, 'listActivity' | 'exportData' | 'deleteAccount'>;
  cookie: SessionCookie;
};

export async function usersRoutes(app: FastifyInstance, { config, users, account, cookie }: UsersRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/users/onboarding',
    signedIn({
      summary: 'Complete onboarding with the name (and company)',
      body: OnboardingBodySchema,
      response: { 200: UserResponseSchema, 400: ErrorSchema },
    }),
    async (req) => {
      const user = await users.completeOnboarding(req.user.id, req.body);
      return { user: toSessionUser(user) };
    },
  );

  r.patch(
    '/users/profile',
    signedIn({
      summary: 'Change the name and company (an omitted company is kept, an empty one cleared)',
      body: UpdateProfileBodySchema,
      response: { 200: UserResponseSchema, 400: ErrorSchema },
    }),
    async (req) => {
      const user = await users.updateProfile(req.user.id, req.body);
      return { user: toSessionUser(user) };
    },
  );

  r.get(
    '/users/activity',
    signedIn({
      summary: 'The activity log of the signed-in user, newest first',
      querystring: PageQuerySchema,
      response: { 200: AuditEventPageSchema, 400: ErrorSchema },
    }),
    async (req) => account.listActivity(req.user.id, req.query.page, req.query.size),
  );

  r.get(
    '/users/export',
    signedIn({
      summary: 'Download everything the portal holds about the signed-in user, as JSON',
      response: { 200: AccountExportSchema },
    }),
    async (req, reply) => {
      const data = await account.exportData(req.user.id, req.session.idHash);
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
      signedIn({
        summary: 'Delete the account: subscriptions cancelled now, licenses revoked, personal data erased, signed out',
        querystring: DeleteAccountQuerySchema,
        response: { 400: ErrorSchema },
      }),
      async (req, reply) => {
        await account.deleteAccount({ userId: req.user.id, sessionCreatedAt: req.session.createdAt });
        cookie.clear(reply);
        return (reply as FastifyReply).status(204).send();
      },
    );
  }
}
