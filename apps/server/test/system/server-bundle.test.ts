import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBundleStale } from '../../../../scripts/build-server.mjs';
import { cleanup, request, SERVER_BUNDLE, startServer, WEB_INDEX } from './harness';

/**
 * `npm start` runs the server from one bundle (scripts/build-server.mjs) with plain node: it must
 * find its migrations and the web build from dist/ as it does from src/, and stop cleanly.
 */
describe('the server bundle', () => {
  beforeAll(async () => {
    await buildServer();
  });
  afterAll(cleanup);

  it('is fresh once built', () => {
    expect(serverBundleStale()).toBe(false);
    expect(statSync(SERVER_BUNDLE).size).toBeGreaterThan(10_000);
  });

  it('starts on the embedded defaults, migrates, serves the API and the web app, and stops on SIGTERM', async () => {
    const server = await startServer({ entry: 'bundle' });
    expect((await request(`${server.url}/api/health/ready`)).status).toBe(200);
    // Tables exist: the migrations were found next to the bundle's package.
    const link = await request(`${server.url}/api/auth/link`, {
      method: 'POST',
      headers: { origin: server.url },
      body: { email: 'bundle@example.com' },
    });
    expect(link.status).toBe(202);
    if (existsSync(WEB_INDEX)) {
      const page = await request(`${server.url}/login`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
    }
    const exit = await server.stop();
    // The server's own lines say why, when it is not 0 (beside a whole npm test at load 22 it was 1 once).
    expect(exit.code, server.output).toBe(0);
  });
});
