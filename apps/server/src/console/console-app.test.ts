import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleTestApp, type ConsoleTestApp } from '../../test/console-helpers';
import { buildConsoleApp } from './console-app';

let t: ConsoleTestApp;
let customerCookie: string;
let staffCookie: string;
beforeAll(async () => {
  t = await buildConsoleTestApp();
  customerCookie = await t.signIn('customer@example.com');
  await t.addStaff('owner@vendor.example', 'owner');
  staffCookie = await t.signInStaff('owner@vendor.example');
});
afterAll(async () => t.close());

const secretOf = (cookie: string) => cookie.split('=')[1]!;

describe('the console and the portal are kept apart', () => {
  it('the customer app has nothing under /api/console', async () => {
    for (const [method, url] of [
      ['GET', '/api/console/auth/me'],
      ['POST', '/api/console/auth/link'],
      ['GET', '/api/console/search?q=ab'],
    ] as const) {
      const res = await t.portal.inject({ method, url, headers: { cookie: staffCookie } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("the console answers nothing of the customer's API, health, metrics or documents", async () => {
    for (const url of [
      '/api/auth/session',
      '/api/licenses/',
      '/api/billing/subscriptions/',
      '/api/health/live',
      '/api/docs/json',
      '/metrics',
    ]) {
      const res = await t.consoleApp.inject({ method: 'GET', url, headers: { cookie: customerCookie } });
      expect(res.statusCode, url).toBe(404);
    }
    const link = await t.consoleApp.inject({ method: 'POST', url: '/api/auth/link', payload: { email: 'x@example.com' } });
    expect(link.statusCode).toBe(404);
  });

  it('a customer session is not accepted on the console, under either cookie name', async () => {
    for (const cookie of [customerCookie, `portal_console_session=${secretOf(customerCookie)}`]) {
      const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/me', headers: { cookie } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('a staff session is not accepted on the portal, under either cookie name', async () => {
    for (const cookie of [staffCookie, `portal_session=${secretOf(staffCookie)}`]) {
      const res = await t.portal.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
      expect(res.statusCode).toBe(401);
    }
  });

  it("applies the portal's security headers and cross-site rules for the console's own origin", async () => {
    const res = await t.consoleApp.inject({ method: 'GET', url: '/api/console/auth/me', headers: { cookie: staffCookie } });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const portalOrigin = await t.consoleApp.inject({
      method: 'POST',
      url: '/api/console/auth/logout',
      headers: { cookie: staffCookie, origin: 'http://localhost:3000' },
    });
    expect(portalOrigin.statusCode).toBe(403);
    const crossSite = await t.consoleApp.inject({
      method: 'POST',
      url: '/api/console/auth/link',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { email: 'owner@vendor.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    const form = await t.consoleApp.inject({
      method: 'POST',
      url: '/api/console/auth/link',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=owner@vendor.example',
    });
    expect(form.statusCode).toBe(415);
  });

  it('keeps the listeners apart on real sockets too', async () => {
    await t.portal.listen({ port: 0, host: '127.0.0.1' });
    await t.consoleApp.listen({ port: 0, host: '127.0.0.1' });
    const portOf = (a: ReturnType<typeof t.portal.server.address>) => (a as { port: number }).port;
    const portal = `http://127.0.0.1:${portOf(t.portal.server.address())}`;
    const console = `http://127.0.0.1:${portOf(t.consoleApp.server.address())}`;
    expect((await fetch(`${portal}/api/console/auth/me`, { headers: { cookie: staffCookie } })).status).toBe(404);
    expect((await fetch(`${console}/api/auth/session`, { headers: { cookie: customerCookie } })).status).toBe(404);
    expect((await fetch(`${console}/api/console/auth/me`, { headers: { cookie: staffCookie } })).status).toBe(200);
    expect((await fetch(`${portal}/api/auth/session`, { headers: { cookie: customerCookie } })).status).toBe(200);
  });
});

describe('the console web app', () => {
  it('serves its built files (precompressed) and index.html for its pages, never for /api', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Console</title>');
    writeFileSync(path.join(dir, 'assets/app-1.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'assets/app-1.js.br'), brotliCompressSync('console.log(1)'));
    const web = await buildConsoleApp(t.config, {
      services: t.portal.ctx.services,
      limitLinkAddress: t.portal.ctx.limitLinkAddress,
      db: t.db,
      clock: t.clock,
      logger: false,
      consoleDist: dir,
    });
    try {
      const page = await web.inject({ method: 'GET', url: '/customers/1234' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<title>Console</title>');
      const asset = await web.inject({ method: 'GET', url: '/assets/app-1.js', headers: { 'accept-encoding': 'br' } });
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toContain('immutable');
      const api = await web.inject({ method: 'GET', url: '/api/console/nothing' });
      expect(api.statusCode).toBe(404);
      expect(api.json().code).toBe('NOT_FOUND');
    } finally {
      await web.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
