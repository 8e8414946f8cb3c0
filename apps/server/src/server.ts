import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { lockDataDir } from './lib/data-dir-lock';

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
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
    } finally {
      unlock();
    }
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
  const mode = [
    config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`,
    config.smtpUrl ? 'SMTP mail' : `mail to ${config.dataDir}/outbox`,
    config.stripe ? 'Stripe billing' : 'local billing engine',
  ].join(', ');
  app.log.info(`Portal ready at ${config.publicUrl} in ${Math.round(performance.now() - started)} ms (${mode})`);
  if (process.send) process.send({ ready: true, url: config.publicUrl });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
