// The portal with its vendor console, as server.ts puts them together (one database, the customer
// app's services), in a child process: the console's listener on a free port of 127.0.0.1. The
// parent sets the environment (DATABASE_URL, ...) and is told both ports over IPC.
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { buildConsoleApp } from '../apps/server/src/console/console-app';
import { openDatabase } from '../apps/server/src/db/client';
import { systemClock } from '../apps/server/src/lib/clock';

const config = loadConfig(process.env);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = await buildApp(config, { database, clock: systemClock, serveWeb: false });
const consoleApp = await buildConsoleApp(config, {
  services: app.ctx.services,
  limitLinkAddress: app.ctx.limitLinkAddress,
  db: database.db,
  clock: systemClock,
  logger: false,
  serveWeb: false,
});
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await Promise.all([app.close(), consoleApp.close()]);
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
await app.listen({ port: 0, host: '127.0.0.1' });
await consoleApp.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: true, port: (consoleApp.server.address() as AddressInfo).port });
