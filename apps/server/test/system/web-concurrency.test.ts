import { afterAll, describe, expect, it } from 'vitest';
import { generateLicenseKey } from '../../src/modules/licenses/license-key';
import { cleanup, createDatabase, query, request, runToExit, sharedServicesReachable, startServer } from './harness';

const reachable = await sharedServicesReachable('web-concurrency');

/** WEB_CONCURRENCY: several server processes behind one port (apps/server/src/cluster.ts). */
describe.skipIf(!reachable && !process.env.CI)('several server processes behind one port', () => {
  afterAll(() => cleanup());

  it('serves validation from two processes, each listening for license changes, and stops gracefully', async () => {
    const databaseUrl = await createDatabase();
    const server = await startServer({ env: { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '2', RATE_LIMIT_LICENSE: '0' } });
    const key = generateLicenseKey();
    await query(databaseUrl, `insert into licenses (key, max_nodes, expires_at) values ($1, 3, now() + interval '30 days')`, [
      key,
    ]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(`${server.url}/api/licenses/${key}/validate`, { method: 'POST', body: { nonce: 'n' } }),
      ),
    );
    for (const a of answers) expect(a.json()).toMatchObject({ valid: true, code: 'VALID' });
    // One notification connection per process: both are whole servers.
    const listeners = await query(
      databaseUrl,
      `select pid from pg_stat_activity where application_name = 'portal-notifications' and datname = current_database()`,
    );
    expect(listeners).toHaveLength(2);
    // Both sign with one key: the first process made it, the second found it.
    const keyIds = new Set(answers.map((a) => /keyid="([^"]+)"/.exec(String(a.headers.signature))?.[1]));
    expect(keyIds.size).toBe(1);

    server.kill('SIGTERM');
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null });
  });

  it('refuses more than one process on the embedded database, naming the setting', async () => {
    const { code, output } = await runToExit({ env: { WEB_CONCURRENCY: '2' } });
    expect(code).toBe(78);
    expect(output).toContain('WEB_CONCURRENCY: above 1 needs DATABASE_URL');
  });
});
