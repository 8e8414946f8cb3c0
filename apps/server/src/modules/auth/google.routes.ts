import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** Sign-in with Google (OpenID Connect); placeholder until it lands. */
export async function googleRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
