import { buildApp } from './app';
import { runAsClusterPrimary } from './cluster';
import { ConfigError, loadConfig } from './config';
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
  const app = await buildApp(config, { logStream: output });
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
      await app.close();
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
  } catch (err) {
    unlock();
    throw err;
  }
  const startedInMs = Math.round(performance.now() - started);
  if (readable) output.print(startBanner(config, startedInMs, colors));
  else {
    const mode = [
      config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`,
      config.smtpUrl ? 'SMTP mail' : `mail to ${config.dataDir}/outbox`,
      config.stripe ? 'Stripe billing' : 'local billing engine',
    ].join(', ');
    app.log.info(`Portal ready at ${config.publicUrl} in ${startedInMs} ms (${mode})`);
  }
  if (process.send) process.send({ ready: true, url: config.publicUrl });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
