import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

export async function productsRoutes(_app: FastifyInstance, _opts: { ctx: AppContext }) {}
