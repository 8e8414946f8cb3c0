// The portal under test, in a child process so the load generator does not share its event loop:
// buildApp(loadConfig(env), { serveWeb: false }) on a free port of 127.0.0.1. The parent sets the
// environment (DATABASE_URL, RATE_LIMIT_LICENSE=0, ...) and is told the port over IPC.
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';

const app = await buildApp(loadConfig(process.env), { serveWeb: false });
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: true, port: (app.server.address() as AddressInfo).port });
