import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import {
  caughtLinks,
  containerAddress,
  cookieOf,
  podman,
  PORTAL_IMAGE,
  ready,
  request,
  ROOT,
  sh,
  waitFor,
  WORK,
  type Answer,
} from './podman';

/**
 * compose.yaml as an operator runs it, with its scale profile: two replicas behind Caddy on
 * PostgreSQL and Redis, mail to the mail catcher. The file is used unchanged, from a project folder
 * of the test's own (with its own .env and portal.env), by Debian's podman-compose.
 */
const id = randomBytes(3).toString('hex');
const project = `portalct${id}`;
const dir = path.join(WORK, `compose-${id}`);
const container = (service: string) => `${project}_${service}_1`;
const migrations = (
  JSON.parse(readFileSync(path.join(ROOT, 'apps/server/drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

async function compose(args: string[]) {
  // podman-compose 1.0.3 (Debian 12) knows no profiles and starts every service, the scale
  // profile's too; later versions are asked for the profile.
  const version = (await sh('podman-compose', ['version'], { check: false })).stdout.match(
    /podman-compose version\s+(\d+)\.(\d+)/,
  );
  const profiles = version && (Number(version[1]) > 1 || Number(version[2]) >= 1) ? ['--profile', 'scale'] : [];
  return sh('podman-compose', ['-p', project, ...profiles, ...args], { cwd: dir });
}

const psql = async (sql: string) =>
  (await podman(['exec', container('postgres'), 'psql', '-U', 'portal', '-d', 'portal', '-tAc', sql])).stdout.trim();

describe.sequential('compose.yaml, scale profile: two replicas behind the proxy on PostgreSQL and Redis', () => {
  let a: string; // replica 1 (service portal), straight to its container
  let b: string; // replica 2 (service portal-2)
  let proxy: string;
  let consoleUrl: string; // replica 1's console, published on the host's loopback

  beforeAll(async () => {
    mkdirSync(path.join(dir, 'deploy/compose'), { recursive: true });
    copyFileSync(path.join(ROOT, 'compose.yaml'), path.join(dir, 'compose.yaml'));
    copyFileSync(path.join(ROOT, 'deploy/compose/Caddyfile'), path.join(dir, 'deploy/compose/Caddyfile'));
    // The operator's settings file, with the limits these tests need: license calls unlimited (they
    // poll), sign-in links limited per address (a limit the replicas must share). The owner who
    // suspends a license across replicas signs in by link alone: the second factor it would ask for
    // by default has its own browser test (e2e/console-second-factor.e2e.test.ts).
    writeFileSync(
      path.join(dir, 'deploy/compose/portal.env'),
      readFileSync(path.join(ROOT, 'deploy/compose/portal.env'), 'utf8') +
        'RATE_LIMIT_LICENSE=0\nRATE_LIMIT_AUTH=0\nRATE_LIMIT_LINK_PER_ADDRESS=3\nCONSOLE_BOOTSTRAP_EMAIL=owner@vendor.example\n' +
        'CONSOLE_REQUIRE_SECOND_FACTOR=none\n',
    );
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const [portalPort, consolePort, proxyPort, mailPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    writeFileSync(
      path.join(dir, '.env'),
      [
        `PORTAL_IMAGE=${PORTAL_IMAGE}`,
        `POSTGRES_PASSWORD=${randomBytes(12).toString('hex')}`,
        `SESSION_SECRET=${randomBytes(32).toString('base64')}`,
        `DOWNLOAD_SECRET=${randomBytes(32).toString('base64')}`,
        `LICENSE_SIGNING_KEY='${pem.trim().replaceAll('\n', '\\n')}'`,
        `PORTAL_PORT=${portalPort}`,
        `CONSOLE_PORT=${consolePort}`,
        `PROXY_PORT=${proxyPort}`,
        `MAILPIT_PORT=${mailPort}`,
        `PUBLIC_URL=http://localhost:${proxyPort}`,
        `CONSOLE_PUBLIC_URL=http://localhost:${consolePort}`,
        '',
      ].join('\n'),
    );
    await compose(['up', '-d']);
    consoleUrl = `http://127.0.0.1:${consolePort}`;
    proxy = `http://127.0.0.1:${proxyPort}`;
    a = `http://${await containerAddress(container('portal'))}:3000`;
    b = `http://${await containerAddress(container('portal-2'))}:3000`;
    // Without health conditions (podman-compose 1.0.3), a replica that found PostgreSQL not yet
    // ready exits and is restarted by its restart policy; addresses stay the same.
    await Promise.all([ready(`${a}/api/health/ready`), ready(`${b}/api/health/ready`), ready(`${proxy}/api/health/ready`)]);
  });

  afterAll(async () => {
    if (process.env.KEEP_STACK) return;
    await compose(['down', '-v', '-t', '30']).catch((err: unknown) => console.error(err));
    // podman-compose 1.0.3 leaves the project's network behind.
    await podman(['network', 'rm', '-f', `${project}_default`], { check: false });
    rmSync(dir, { recursive: true, force: true });
  });

  const mailedLink = (email: string) =>
    waitFor(
      `the sign-in e-mail to ${email} at the mail catcher`,
      async () => caughtLinks((await podman(['logs', container('mailpit')])).stdout).findLast((m) => m.to === email)?.secret,
    );

  async function signIn(via: string, redeemOn: string, email: string) {
    expect((await request(`${via}/api/auth/link`, { method: 'POST', body: { email } })).status).toBe(202);
    const redeemed = await request(`${redeemOn}/api/auth/link/${await mailedLink(email)}`);
    expect(redeemed.status, redeemed.body).toBe(200);
    return cookieOf(redeemed, 'portal_session')!;
  }

  it('migrated the empty database exactly once though both replicas started together', async () => {
    expect(Number(await psql('select count(*) from drizzle.__drizzle_migrations'))).toBe(migrations);
  });

  it('a customer signed in on one replica is served by the other, and through the proxy', async () => {
    const cookie = await signIn(a, b, `both-${id}@example.com`);
    for (const url of [a, b, proxy, proxy]) {
      const session = await request(`${url}/api/auth/session`, { headers: { cookie } });
      expect(session.status, `${url}: ${session.body}`).toBe(200);
    }
  });

  it('the sign-in links of one address are limited across both replicas (Redis)', async () => {
    const email = `limited-${id}@example.com`;
    const statuses = [];
    for (const url of [a, b, a, b])
      statuses.push((await request(`${url}/api/auth/link`, { method: 'POST', body: { email } })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  describe('licenses', () => {
    let cookie: string;
    let licenseKey: string;

    beforeAll(async () => {
      cookie = await signIn(a, a, `buyer-${id}@example.com`);
      const headers = { cookie };
      expect(
        (await request(`${a}/api/users/onboarding`, { method: 'POST', headers, body: { fname: 'Bo', lname: 'Buyer' } })).status,
      ).toBe(200);
      const intent = await request(`${a}/api/billing/intents/setup`, { method: 'POST', headers });
      const card = await request(`${a}/api/billing/local/confirm-setup`, {
        method: 'POST',
        headers,
        body: {
          clientSecret: intent.json().clientSecret,
          number: '4242424242424242',
          expMonth: 12,
          expYear: new Date().getUTCFullYear() + 3,
          cvc: '123',
        },
      });
      expect(card.status, card.body).toBeLessThan(300);
      const checkout = await request(`${a}/api/billing/intents/checkout`, {
        method: 'POST',
        headers,
        body: { interval: 'month', quantity: 99 },
      });
      expect(checkout.status, checkout.body).toBeLessThan(300);
      licenseKey = checkout.json().subscription.licenseKey;
      expect(
        (await request(`${b}/api/licenses/${licenseKey}/activate`, { method: 'POST', body: { fingerprint: 'first' } })).status,
      ).toBe(201);
    });

    const validate = async (url: string, fingerprint: string) =>
      (
        await request(`${url}/api/licenses/${licenseKey}/validate`, {
          method: 'POST',
          body: { fingerprint, nonce: randomBytes(8).toString('hex') },
        })
      ).json() as {
        code: string;
      };

    it('a license suspended through one replica is refused by the other within a second', async () => {
      // Replica 2 holds the license in memory from here on.
      expect((await validate(b, 'first')).code).toBe('VALID');
      const staffEmail = 'owner@vendor.example';
      expect((await request(`${consoleUrl}/api/console/auth/link`, { method: 'POST', body: { email: staffEmail } })).status).toBe(
        202,
      );
      const signedIn = await request(`${consoleUrl}/api/console/auth/link/${await mailedLink(staffEmail)}`, { method: 'POST' });
      expect(signedIn.status, signedIn.body).toBe(200);
      const staff = { cookie: cookieOf(signedIn, 'portal_console_session')! };

      const suspended = await request(`${consoleUrl}/api/console/licenses/${licenseKey}/suspend`, {
        method: 'POST',
        headers: staff,
        body: { reason: 'Container test: suspension across replicas' },
      });
      expect(suspended.status, suspended.body).toBeLessThan(300);
      const committedAt = performance.now();
      for (;;) {
        const started = performance.now();
        const { code } = await validate(b, 'first');
        if (code === 'SUSPENDED') break;
        expect(started - committedAt, `replica 2 still answers ${code}`).toBeLessThan(1000);
      }
      const resumed = await request(`${consoleUrl}/api/console/licenses/${licenseKey}/resume`, {
        method: 'POST',
        headers: staff,
        body: { reason: 'Container test: resumed' },
      });
      expect(resumed.status, resumed.body).toBeLessThan(300);
      await waitFor('replica 2 to see the license resumed', async () =>
        (await validate(b, 'first')).code === 'VALID' ? true : undefined,
      );
    });

    it('one replica killed mid-traffic: every answered activation is kept, and the proxy carries on with the other', async () => {
      const answered: string[] = [];
      const failed: string[] = [];
      let sent = 0;
      let sentAtKill = 0;
      let killed: Promise<unknown> | undefined;
      // The license allows 99 nodes and has one: traffic goes on until 35 more activations were
      // sent after the kill took effect, 95 at most.
      let stopAt = 95;
      const worker = async () => {
        while (sent < stopAt) {
          const fingerprint = `traffic-${sent++}`;
          let answer: Answer | undefined;
          try {
            answer = await request(`${proxy}/api/licenses/${licenseKey}/activate`, { method: 'POST', body: { fingerprint } });
          } catch {
            // no answer: the request may or may not have been kept
          }
          if (answer?.status === 201) answered.push(fingerprint);
          else failed.push(`${fingerprint}: ${answer ? `${answer.status} ${answer.body.slice(0, 80)}` : 'no answer'}`);
          // Replica 1 dies (SIGKILL: no goodbye) with requests in flight on both.
          if (answered.length === 5 && !killed)
            killed = podman(['kill', '--signal', 'KILL', container('portal')]).then(() => {
              sentAtKill = sent;
              stopAt = Math.min(stopAt, sent + 35);
            });
        }
      };
      await Promise.all([worker(), worker(), worker()]);
      await killed;
      console.log(
        `activations through the proxy: ${sent} sent (${sent - sentAtKill} after the kill), ${answered.length} answered 201, ${failed.length} not (${failed.slice(0, 5).join('; ')})`,
      );
      expect(killed).toBeDefined();
      expect(sent - sentAtKill, 'traffic after the kill').toBeGreaterThanOrEqual(20);
      // Caddy retries what could not reach a replica: all but the requests in flight on the killed one are answered.
      expect(answered.length).toBeGreaterThan(sent - 10);
      // Nothing answered is lost: every answered node is stored and valid on the surviving replica.
      const stored = new Set(
        (
          await psql(`select fingerprint from nodes n join licenses l on l.id = n.license_id where l.key = '${licenseKey}'`)
        ).split('\n'),
      );
      expect(answered.filter((f) => !stored.has(f))).toEqual([]);
      for (const fingerprint of answered.slice(-5)) expect((await validate(proxy, fingerprint)).code).toBe('VALID');
    });
  });
});
