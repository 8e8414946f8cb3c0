import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export async function billingRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
