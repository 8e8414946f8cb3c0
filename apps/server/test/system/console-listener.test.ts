import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cookieOf, freePort, request, startServer, waitFor, waitForLink } from './harness';

const refuses = (url: string) =>
  waitFor(
    `${url} to refuse connections`,
    () =>
      request(url, { timeoutMs: 2000 }).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED' || undefined,
      ),
    undefined,
    20,
  );

/** server.ts: the console on a listener of its own beside the portal, and both closed on SIGTERM. */
describe('the console listener', () => {
  afterAll(cleanup);

  it('serves the console on CONSOLE_PORT with its bootstrap owner, nothing of it on PORT, and closes both on SIGTERM', async () => {
    const consolePort = await freePort();
    const server = await startServer({
      env: { CONSOLE_PORT: String(consolePort), CONSOLE_BOOTSTRAP_EMAIL: 'Owner@Vendor.example' },
    });
    const consoleUrl = `http://localhost:${consolePort}`;

    const asked = await request(`${consoleUrl}/api/console/auth/link`, {
      method: 'POST',
      body: { email: 'owner@vendor.example' },
    });
    expect(asked.status, asked.body).toBe(202);
    const secret = await waitForLink(server.dataDir, 'owner@vendor.example');
    const signedIn = await request(`${consoleUrl}/api/console/auth/link/${secret}`, { method: 'POST' });
    expect(signedIn.status, signedIn.body).toBe(200);
    const cookie = cookieOf(signedIn, 'portal_console_session')!;
    const me = await request(`${consoleUrl}/api/console/auth/me`, { headers: { cookie } });
    expect(me.json()).toMatchObject({ staff: { email: 'owner@vendor.example', role: 'owner' } });
    expect((await request(`${server.url}/api/console/auth/me`, { headers: { cookie } })).status).toBe(404);

    server.kill('SIGTERM');
    await refuses(`${server.url}/api/health/live`);
    await refuses(`${consoleUrl}/api/console/auth/me`);
    expect(await server.waitForExit(), server.output).toEqual({ code: 0, signal: null });
  });
});
