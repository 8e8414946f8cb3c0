import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { createMetrics } from './observability';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('health and metrics', () => {
  it('answers liveness and readiness (which checks the database)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('serves Prometheus metrics to loopback with request counts and the outbox backlog', async () => {
    await t.app.inject({ method: 'GET', url: '/api/auth/session' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total{method="GET",route="/api/auth/session",status="401"}');
    expect(res.body).toMatch(/http_request_duration_seconds_bucket\{method="GET",route="\/api\/auth\/session",le="0.005"\}/);
    expect(res.body).toMatch(/^outbox_backlog \d+$/m);
    expect(res.body).toMatch(/^log_lines_dropped \d+$/m);
  });

  it('hides metrics from other addresses and from proxied requests', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect([remote.statusCode, proxied.statusCode]).toEqual([404, 404]);
  });

  it('accepts a bearer token when METRICS_TOKEN is set', async () => {
    const withToken = await buildTestApp({ METRICS_TOKEN: 'tok-123' });
    try {
      const ok = await withToken.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.9',
        headers: { authorization: 'Bearer tok-123' },
      });
      const bad = await withToken.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { authorization: 'Bearer nope' },
      });
      expect([ok.statusCode, bad.statusCode]).toEqual([200, 404]);
    } finally {
      await withToken.close();
    }
  });
});

describe('the metrics registry', () => {
  it('counts through a resolved request series exactly as inc and observe do', () => {
    const labels = { method: 'POST', route: '/api/licenses/:licenseKey/validate' };
    const spelled = createMetrics();
    const resolved = createMetrics();
    const count = resolved.requestSeries('http_requests_total', { ...labels, status: '200' }, labels);
    for (const seconds of [0.001, 0.02, 0.3, 7]) {
      spelled.inc('http_requests_total', { ...labels, status: '200' });
      spelled.observe(labels, seconds);
      count(seconds);
    }
    const text = resolved.render({});
    expect(text).toBe(spelled.render({}));
    expect(text).toContain('http_requests_total{method="POST",route="/api/licenses/:licenseKey/validate",status="200"} 4');
    expect(text).toContain(
      'http_request_duration_seconds_bucket{method="POST",route="/api/licenses/:licenseKey/validate",le="0.025"} 2',
    );
    expect(text).toContain('http_request_duration_seconds_count{method="POST",route="/api/licenses/:licenseKey/validate"} 4');
  });
});
