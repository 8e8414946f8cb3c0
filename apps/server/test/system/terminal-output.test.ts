import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanup,
  freePort,
  request,
  ROOT,
  serverArgs,
  serverEnv,
  startServer,
  tempDir,
  track,
  waitFor,
  type Exit,
} from './harness';

/**
 * A person running `npm start` in a terminal reads the address, where e-mail goes and the test card
 * in a short banner, then one readable line per event; pipes and log collectors get JSON lines.
 */
describe('log format', () => {
  afterEach(cleanup);

  it.runIf(process.platform === 'linux')(
    'on a terminal: a banner with the address, the outbox and the test card, then readable lines, one per request',
    async () => {
      const dataDir = tempDir('portal-sys-tty-');
      const port = await freePort();
      const command = [process.execPath, ...serverArgs()].join(' ');
      // util-linux `script` runs the server on a pseudo-terminal and copies what it shows.
      const terminal = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        cwd: ROOT,
        env: { ...serverEnv(port, dataDir, { LOG_LEVEL: 'info', NO_COLOR: '1' }), TERM: 'dumb' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      terminal.stdout!.on('data', (c: Buffer) => (screen += c.toString()));
      terminal.stderr!.on('data', (c: Buffer) => (screen += c.toString()));
      const exited = new Promise<Exit>((resolve) => terminal.once('exit', (code, signal) => resolve({ code, signal })));
      const serverPid = () => Number(readFileSync(path.join(dataDir, 'portal.lock'), 'utf8').split(/\s/)[0]);
      track(async () => {
        try {
          process.kill(serverPid(), 'SIGKILL');
        } catch {
          // already gone
        }
        terminal.kill('SIGKILL');
        await exited;
      }, exited);

      await waitFor('the banner', () => screen.includes('Portal ready at'), 300_000, 100);
      const banner = screen.slice(screen.indexOf('Portal ready at'));
      expect(banner).toContain(`Portal ready at http://localhost:${port}`);
      expect(banner).toMatch(/E-mail +written to .*outbox/);
      expect(banner).toContain('4242 4242 4242 4242');

      const link = await request(`http://localhost:${port}/api/auth/link`, {
        method: 'POST',
        headers: { origin: `http://localhost:${port}` },
        body: { email: 'terminal@example.com' },
      });
      expect(link.status).toBe(202);
      await waitFor('the sign-in link on the screen', () =>
        /INFO {2}Sign-in link for terminal@example.com: http\S+/.test(screen),
      );
      await waitFor('the request line', () => /INFO {2}POST \/api\/auth\/link 202 [\d.]+ ms/.test(screen));
      // Readable lines only: not one JSON object.
      expect(screen).not.toMatch(/^\{"level"/m);

      process.kill(serverPid(), 'SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    },
  );

  it('through a pipe: one JSON object per line, the ready line among them', async () => {
    const server = await startServer({ env: { LOG_LEVEL: 'info' } });
    await waitFor('the ready line', () => server.output.includes('Portal ready at'));
    const lines = server.output.trim().split('\n');
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    expect(lines.map((l) => JSON.parse(l).msg)).toContainEqual(expect.stringContaining(`Portal ready at ${server.url}`));
  });
});
