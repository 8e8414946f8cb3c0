import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';

/**
 * Issue 14, item 7: an unsafe request's Origin is accepted when it is PUBLIC_URL's, or when it is
 * the origin the request was addressed to and that host is PUBLIC_URL's or a loopback alias. Any
 * other Host (a DNS-rebinding page sends its own name as both Host and Origin) is refused.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const requestLink = (app: TestApp, host: string, origin: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/link',
    headers: { host, origin },
    payload: { email: 'hosts@example.com' },
  });

describe('Origin check: which hosts count as the portal (PUBLIC_URL http://localhost:3000)', () => {
  it.each([
    ['an attacker name resolving to this machine', 'rebind.attacker.example:3000'],
    ['an attacker name without a port', 'rebind.attacker.example'],
    ['an IP address of another interface', '192.168.1.20:3000'],
    ['a name that merely starts like localhost', 'localhost.attacker.example:3000'],
  ])('refuses %s, even when the Origin matches that Host', async (_what, host) => {
    const res = await requestLink(t, host, `http://${host}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Requests from other sites are not allowed', code: 'CROSS_SITE_REQUEST' });
  });

  it.each([
    ['PUBLIC_URL itself', 'localhost:3000'],
    ['127.0.0.1', '127.0.0.1:3000'],
    ['another 127/8 address', '127.0.1.1:3000'],
    ['[::1]', '[::1]:3000'],
    ['localhost on another port (a local proxy)', 'localhost:8080'],
  ])('accepts the origin the request was addressed to on %s', async (_what, host) => {
    const res = await requestLink(t, host, `http://${host}`);
    expect(res.statusCode, res.body).toBe(202);
  });

  it("accepts PUBLIC_URL's origin whatever the Host header", async () => {
    expect((await requestLink(t, 'internal-name:3000', 'http://localhost:3000')).statusCode).toBe(202);
  });

  it('refuses a loopback Host whose Origin names another site', async () => {
    expect((await requestLink(t, '127.0.0.1:3000', 'http://rebind.attacker.example:3000')).statusCode).toBe(403);
  });
});

describe('Origin check behind a proxy (PUBLIC_URL https://portal.example.com)', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await buildTestApp({ PUBLIC_URL: 'https://portal.example.com' });
  });
  afterAll(() => p.close());

  it("accepts PUBLIC_URL's origin and the origin addressed to PUBLIC_URL's host", async () => {
    expect((await requestLink(p, 'portal.example.com', 'https://portal.example.com')).statusCode).toBe(202);
    // A proxy that terminates TLS without X-Forwarded-Proto: the request arrives as http.
    expect((await requestLink(p, 'portal.example.com', 'http://portal.example.com')).statusCode).toBe(202);
  });

  it('refuses any other host', async () => {
    const res = await requestLink(p, 'portal.attacker.example', 'http://portal.attacker.example');
    expect(res.statusCode).toBe(403);
  });
});
