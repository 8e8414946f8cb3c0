import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export async function licensesRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
