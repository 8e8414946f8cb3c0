import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorSchema, OnboardingBodySchema, UserResponseSchema } from '@portal/contract';
import type { AppContext } from '../../app-context';
import { toSessionUser } from './users.service';

export async function usersRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { services, guard } = ctx;

  r.post(
    '/users/onboarding',
    {
      bodyLimit: 16 * 1024,
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
}
