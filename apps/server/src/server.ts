import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { runAsClusterPrimary } from './cluster';
import { ConfigError, loadConfig } from './config';
import { buildConsoleApp } from './console/console-app';
import { openDatabase } from './db/client';
import { systemClock } from './lib/clock';
import { lockDataDir } from './lib/data-dir-lock';
import { startBanner } from './lib/log-banner';
import { LogOutput, wantsReadableLogs } from './lib/log-output';
import { prettyFormatter } from './lib/log-pretty';

/** How long closing may take before the process exits anyway (give supervisors at least 15 s). */
const GRACE_MS = 10_000;
/** How long the last log lines may then take to reach a reader: a stalled one must not hold up the exit. */
const FINAL_FLUSH_MS = 1_000;

/** Entry point: configuration -> app -> listen -> graceful close on SIGTERM/SIGINT. */
async function main() {
  const started = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  // WEB_CONCURRENCY above 1: this process only runs the server processes (cluster.ts).
  if (runAsClusterPrimary(config.webConcurrency, (line) => console.log(line))) return;
  const readable = wantsReadableLogs(process.stdout);
  const colors = readable && !process.env.NO_COLOR;
  if (readable) {
    // Node writes to a terminal synchronously; a paused one (Ctrl-S) would stop the event loop.
    (process.stdout as { _handle?: { setBlocking?: (blocking: boolean) => void } })._handle?.setBlocking?.(false);
  }
  const output = new LogOutput({ stream: process.stdout, format: readable ? prettyFormatter({ colors }) : undefined });
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  // Opened here, not in buildApp, because the console's listener uses it too; closed last.
  const logs: { to?: FastifyInstance['log'] } = {};
  let database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeoutMs: config.databaseTimeoutMs,
      log: { warn: (details, message) => logs.to?.warn(details, message) },
    });
  } catch (err) {
    unlock();
    throw err;
  }
  const app = await buildApp(config, { logStream: output, database, clock: systemClock });
  logs.to = app.log;
  const consoleApp =
    config.console.port === 0
      ? undefined
      : await buildConsoleApp(config, {
          services: app.ctx.services,
          limitLinkAddress: app.ctx.limitLinkAddress,
          db: database.db,
          clock: systemClock,
          logStream: output,
        });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    // Nothing on the way out may block the event loop, so this timer always gets to run.
    let forced = false;
    const force = setTimeout(() => {
      forced = true;
      process.exitCode = 1;
      app.log.error(`shutdown took longer than ${GRACE_MS / 1000} s, exiting`);
      void output.flush(FINAL_FLUSH_MS).then(() => process.exit(1));
    }, GRACE_MS);
    force.unref();
    try {
      // Both listeners stop taking requests and finish their own, then the database closes.
      await Promise.all([app.close(), consoleApp?.close()]);
      await database.close();
    } finally {
      unlock();
    }
    if (forced) return;
    // The last lines, unless the log reader has stalled or gone.
    await output.flush(FINAL_FLUSH_MS);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
    await consoleApp?.listen({ port: config.console.port, host: config.console.host });
  } catch (err) {
    unlock();
    throw err;
  }
  const startedInMs = Math.round(performance.now() - started);
  const consoleAt = consoleApp ? config.console.publicUrl : undefined;
  if (readable) output.print(startBanner(config, startedInMs, colors, consoleAt));
  else {
    const mode = [
      config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`,
      config.smtpUrl ? 'SMTP mail' : `mail to ${config.dataDir}/outbox`,
      config.stripe ? 'Stripe billing' : 'local billing engine',
    ].join(', ');
    app.log.info(`Portal ready at ${config.publicUrl} in ${startedInMs} ms (${mode})`);
    if (consoleAt) app.log.info(`Vendor console ready at ${consoleAt} (listening on ${listenAddress(consoleApp!)})`);
  }
  // `npm start` forwards this to its parent (the benchmarks measure this process by its pid).
  if (process.send) process.send({ ready: true, url: config.publicUrl, consoleUrl: consoleAt ?? null, pid: process.pid });
}

/** host:port the app listens on (the real port when CONSOLE_PORT asked for any free one). */
function listenAddress(app: FastifyInstance): string {
  const a = app.server.address();
  return a && typeof a === 'object' ? `${a.address}:${a.port}` : String(a);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
