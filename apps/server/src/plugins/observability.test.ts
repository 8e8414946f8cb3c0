import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';

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
