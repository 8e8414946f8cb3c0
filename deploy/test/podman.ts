import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * podman as these machines run it (STACK.md): runc, cgroupfs and no default ulimits, from a
 * containers.conf of the tests' own; everything the tests make lives in .tmp/containers.
 */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const WORK = path.join(ROOT, '.tmp/containers');
mkdirSync(WORK, { recursive: true });
const CONTAINERS_CONF = path.join(WORK, 'containers.conf');
writeFileSync(CONTAINERS_CONF, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n');
export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF };

/** The portal's image as the tests build it from the Dockerfile. */
export const PORTAL_IMAGE = 'localhost/customer-portal:test';

export type Run = { code: number; stdout: string; stderr: string };

/** Runs a command to its end; throws with its output when it fails, unless `check` is false. */
export function sh(
  command: string,
  args: string[],
  {
    check = true,
    cwd = ROOT,
    env = PODMAN_ENV,
    input,
  }: { check?: boolean; cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { cwd, env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      if (check && code !== 0)
        reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr}\n${stdout}`.slice(-8000)));
      else resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

export const podman = (args: string[], opts: Parameters<typeof sh>[2] = {}) => sh('podman', args, opts);

/** Runs a long command with its output in a log file (a build, mmdebstrap); throws with its tail on failure. */
export function logged(command: string, args: string[], logFile: string, { cwd = ROOT } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const child = spawn(command, args, { cwd, env: PODMAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString();
      writeFileSync(logFile, output);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited ${code} (log: ${logFile}):\n${output.slice(-6000)}`));
    });
  });
}

export async function imageExists(name: string): Promise<boolean> {
  return (await podman(['image', 'exists', name], { check: false })).code === 0;
}

export async function imageLabel(name: string, label: string): Promise<string | undefined> {
  const r = await podman(['image', 'inspect', '--format', `{{ index .Labels "${label}" }}`, name], { check: false });
  const value = r.stdout.trim();
  return r.code === 0 && value !== '' && value !== '<no value>' ? value : undefined;
}

/** A container's address on its first podman network (reachable from this host: rootful podman). */
export async function containerAddress(container: string): Promise<string> {
  const r = await podman(['inspect', '--format', '{{ range .NetworkSettings.Networks }}{{ .IPAddress }} {{ end }}', container]);
  const ip = r.stdout.trim().split(/\s+/)[0];
  if (!ip) throw new Error(`${container} has no address`);
  return ip;
}

// ---------------------------------------------------------------- HTTP

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever shape each endpoint answers
export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; json: () => any };

export function request(
  url: string,
  opts: { method?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...opts.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const timer = setTimeout(() => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(payload);
  });
}

export const cookieOf = (answer: Answer, name: string) =>
  ([] as string[])
    .concat(answer.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

/**
 * Polls `probe` until it answers something other than undefined. `timeoutMs` is a hang guard, not a
 * budget: generous, so that a slow, busy machine still passes.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 300_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Answers once `url` answers 200. */
export const ready = (url: string, timeoutMs?: number) =>
  waitFor(
    `${url} to answer 200`,
    async () => ((await request(url, { timeoutMs: 5000 })).status === 200 ? true : undefined),
    timeoutMs,
  );

const unfoldQuotedPrintable = (text: string) => text.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');

/** Every sign-in link secret in a text (a log), in order. */
export const linkSecrets = (text: string) =>
  [...unfoldQuotedPrintable(text).matchAll(/[?&]link=([A-Za-z0-9_-]{43})/g)].map((m) => m[1]!);

/** The sign-in links the mail catcher's stand-in printed (aiosmtpd's Debugging handler), by recipient. */
export function caughtLinks(log: string): { to: string; secret: string }[] {
  const found: { to: string; secret: string }[] = [];
  for (const message of log.split('---------- MESSAGE FOLLOWS ----------').slice(1)) {
    const to = message
      .match(/^To: *(.+?)\r?$/im)?.[1]
      ?.trim()
      .toLowerCase();
    const secret = linkSecrets(message)[0];
    if (to && secret) found.push({ to, secret });
  }
  return found;
}
