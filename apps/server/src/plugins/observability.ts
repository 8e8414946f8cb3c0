import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { logLinesDropped } from '../lib/log-output';
import type { OutboxService } from '../modules/outbox/outbox.service';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** A small Prometheus registry: counters and latency histograms keyed by label sets. */
export function createMetrics() {
  const counters = new Map<string, Map<string, number>>();
  const histograms = new Map<string, { counts: number[]; sum: number; n: number }>();
  const labelKey = (labels: Record<string, string>) =>
    Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
      .join(',');
  const counterOf = (name: string, labels: Record<string, string>) => {
    let m = counters.get(name);
    if (!m) counters.set(name, (m = new Map()));
    const k = labelKey(labels);
    if (!m.has(k)) m.set(k, 0);
    return { m, k };
  };
  const histogramOf = (labels: Record<string, string>) => {
    const k = labelKey(labels);
    let h = histograms.get(k);
    if (!h) histograms.set(k, (h = { counts: BUCKETS.map(() => 0), sum: 0, n: 0 }));
    return h;
  };
  const record = (h: { counts: number[]; sum: number; n: number }, seconds: number) => {
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.counts[i]!++;
    h.sum += seconds;
    h.n++;
  };
  return {
    inc(name: string, labels: Record<string, string>, by = 1) {
      const { m, k } = counterOf(name, labels);
      m.set(k, m.get(k)! + by);
    },
    observe(labels: Record<string, string>, seconds: number) {
      record(histogramOf(labels), seconds);
    },
    /**
     * One request series resolved once (its counter and its latency histogram), for a hot route
     * that would otherwise spell its labels on every request. Counts as inc + observe do.
     */
    requestSeries(name: string, labels: Record<string, string>, histogramLabels: Record<string, string>) {
      const { m, k } = counterOf(name, labels);
      const h = histogramOf(histogramLabels);
      return (seconds: number) => {
        m.set(k, m.get(k)! + 1);
        record(h, seconds);
      };
    },
    render(gauges: Record<string, number>): string {
      const out: string[] = [];
      for (const [name, m] of counters) {
        out.push(`# TYPE ${name} counter`);
        for (const [k, v] of m) out.push(`${name}{${k}} ${v}`);
      }
      out.push('# TYPE http_request_duration_seconds histogram');
      for (const [k, h] of histograms) {
        BUCKETS.forEach((b, i) => out.push(`http_request_duration_seconds_bucket{${k},le="${b}"} ${h.counts[i]}`));
        out.push(`http_request_duration_seconds_bucket{${k},le="+Inf"} ${h.n}`);
        out.push(`http_request_duration_seconds_sum{${k}} ${h.sum}`);
        out.push(`http_request_duration_seconds_count{${k}} ${h.n}`);
      }
      for (const [name, v] of Object.entries(gauges)) out.push(`# TYPE ${name} gauge`, `${name} ${v}`);
      return out.join('\n') + '\n';
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Health for load balancers (`/api/health/live`, `/api/health/ready` checks the database) and
 * Prometheus metrics at `/metrics`, reachable only from loopback or with METRICS_TOKEN.
 */
export function registerObservability(
  app: FastifyInstance,
  deps: { database: Database; outbox: OutboxService; metrics: Metrics; metricsToken: string | undefined },
) {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    deps.metrics.inc('http_requests_total', labels);
    deps.metrics.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/api/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/api/health/ready', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await Promise.race([
        deps.database.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database ping timed out')), 2000).unref()),
      ]);
      return { status: 'ok', database: 'ok' };
    } catch {
      return reply.status(503).send({ message: 'The database is not reachable', code: 'SERVICE_UNAVAILABLE' });
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
    const token = deps.metricsToken;
    const authorised = token ? req.headers.authorization === `Bearer ${token}` : loopback && !req.headers['x-forwarded-for'];
    if (!authorised) return reply.status(404).send({ message: 'No such endpoint: GET /metrics', code: 'NOT_FOUND' });
    const backlog = await deps.outbox.pending().catch(() => -1);
    return reply.type('text/plain; version=0.0.4').send(
      deps.metrics.render({
        outbox_backlog: backlog,
        process_resident_memory_bytes: process.memoryUsage().rss,
        // Since start: log lines lost to a log reader that stalled or went away.
        log_lines_dropped: logLinesDropped(),
      }),
    );
  });
}
