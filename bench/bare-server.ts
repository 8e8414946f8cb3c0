// The baseline: a bare Fastify app with one route answering { ok: true } (GET, and POST with a JSON
// body like a validation's), measured with the same load generator as the portal.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const ok = async () => ({ ok: true });
app.route({ method: ['GET', 'POST'], url: '/ok', handler: ok });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: true, port: (app.server.address() as AddressInfo).port });
