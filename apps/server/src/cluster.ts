import cluster from 'node:cluster';

/**
 * `WEB_CONCURRENCY=N` above 1: this process becomes the primary of N server processes behind one
 * port (node:cluster; Linux hands connections round-robin). Each worker is a whole server with
 * its own pool, validation cache and notification connection (ADR 023), so nothing is shared
 * in-process. The primary serves nothing: it reports ready once every worker is, passes stop
 * signals on and waits for the workers' graceful exits, and replaces a worker that dies. Workers
 * that fail before any became ready (a bad configuration) stop the primary with their exit code.
 *
 * Answers true in the primary (the caller must not start a server), false in a worker or when
 * one process is asked for.
 */
export function runAsClusterPrimary(workers: number, log: (line: string) => void): boolean {
  if (workers <= 1 || !cluster.isPrimary) return false;
  let stopping = false;
  let readyOnce = false;
  const ready = new Set<number>();

  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (m: { ready?: boolean; url?: string }) => {
      if (!m?.ready) return;
      ready.add(worker.id);
      // At start, one after another: the first creates the secrets a DATA_DIR keeps and runs the
      // migrations; the others then find both done.
      if (!readyOnce && ready.size < workers) fork();
      if (!readyOnce && ready.size === workers) {
        readyOnce = true;
        log(`${workers} server processes ready (WEB_CONCURRENCY)`);
        process.send?.({ ready: true, url: m.url });
      }
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    const alive = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (alive === 0) process.exit(0);
      return;
    }
    if (!readyOnce) {
      log(`a server process exited (${code ?? signal}) before the cluster was ready: stopping`);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      if (alive === 0) process.exit(code || 1);
      return;
    }
    log(`server process ${worker.process.pid} exited (${code ?? signal}): starting another`);
    setTimeout(fork, 1_000).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    // Each worker exits within its own grace period; this only guards against one that never does.
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  fork();
  return true;
}
