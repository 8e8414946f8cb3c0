import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { cookieOf, linkSecrets, podman, PORTAL_IMAGE, ready, request, waitFor } from './podman';
import { STAND_INS } from './stand-ins';

const MB = 1_000_000;
type Inspect = {
  Size: number;
  Healthcheck?: { Test: string[] };
  Config: {
    User: string;
    Labels: Record<string, string>;
    StopSignal?: string;
    Volumes?: Record<string, unknown>;
    Env: string[];
  };
};
const inspect = async (image: string) => (JSON.parse((await podman(['image', 'inspect', image])).stdout) as Inspect[])[0]!;

describe('the image', () => {
  it('runs as a non-root user, checks readiness, stops on SIGTERM, keeps DATA_DIR on a volume, carries its labels', async () => {
    const { Config, Healthcheck } = await inspect(PORTAL_IMAGE);
    expect(Config.User).toBe('node');
    expect(Config.StopSignal).toBe('SIGTERM');
    expect(Healthcheck?.Test.join(' ')).toContain('/api/health/ready');
    expect(Object.keys(Config.Volumes ?? {})).toEqual(['/data']);
    expect(Config.Env).toContain('DATA_DIR=/data');
    expect(Config.Labels).toMatchObject({
      'org.opencontainers.image.version': expect.stringMatching(/^\d+\.\d+\.\d+/),
      'org.opencontainers.image.licenses': expect.any(String),
    });
    expect(Object.keys(Config.Labels)).toContain('org.opencontainers.image.source');
    // No secret of any kind in the image's configuration.
    expect(Config.Env.filter((e) => /SECRET|KEY|TOKEN|PASSWORD|DATABASE_URL/.test(e))).toEqual([]);
  });

  it('adds less than 150 MB to its base image (production dependencies and built files only)', async () => {
    const image = await inspect(PORTAL_IMAGE);
    const base = await inspect(STAND_INS[0]!.tag);
    const added = image.Size - base.Size;
    console.log(
      `image ${Math.round(image.Size / MB)} MB on the Node stand-in (${Math.round(base.Size / MB)} MB); the project's layers: ${Math.round(added / MB)} MB`,
    );
    expect(added).toBeLessThan(150 * MB);
    // Nothing of the build stage: no sources, no dev dependencies.
    const listing = (
      await podman([
        'run',
        '--rm',
        '--pull=never',
        '--entrypoint',
        'sh',
        PORTAL_IMAGE,
        '-c',
        'ls /app /app/apps /app/node_modules',
      ])
    ).stdout;
    expect(listing).not.toMatch(/\b(vitest|eslint|typescript|vite|esbuild|drizzle-kit|playwright-core)\b/);
    expect(listing).not.toMatch(/\bsrc\b/);
  });
});

describe('the image alone, on the embedded defaults', () => {
  const name = `portal-alone-${randomBytes(4).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await podman(['run', '-d', '--pull=never', '--name', name, '-p', `127.0.0.1:${port}:3000`, PORTAL_IMAGE]);
    await ready(`${url}/api/health/ready`);
  });

  afterAll(async () => {
    // -v: the container's anonymous DATA_DIR volume goes with it.
    await podman(['rm', '-f', '-v', '-t', '0', name], { check: false });
  });

  it('answers, mails a sign-in link to its outbox, and sells a subscription with the test card', async () => {
    expect((await request(`${url}/`)).status).toBe(200);
    expect((await podman(['healthcheck', 'run', name], { check: false })).code).toBe(0);

    const email = 'alone@example.com';
    expect((await request(`${url}/api/auth/link`, { method: 'POST', body: { email } })).status).toBe(202);
    const secret = await waitFor('the sign-in link in the log', async () =>
      linkSecrets((await podman(['logs', name])).stdout).at(-1),
    );
    // The e-mail itself is in the volume's outbox.
    expect((await podman(['exec', name, 'sh', '-c', 'grep -l alone@example.com /data/outbox/*.eml'])).stdout).toContain('.eml');

    const redeemed = await request(`${url}/api/auth/link/${secret}`);
    expect(redeemed.status, redeemed.body).toBe(200);
    const cookie = cookieOf(redeemed, 'portal_session')!;
    const headers = { cookie };
    const onboarded = await request(`${url}/api/users/onboarding`, {
      method: 'POST',
      headers,
      body: { fname: 'Ada', lname: 'Alone' },
    });
    expect(onboarded.status, onboarded.body).toBe(200);
    const intent = await request(`${url}/api/billing/intents/setup`, { method: 'POST', headers });
    expect(intent.status, intent.body).toBe(200);
    const card = await request(`${url}/api/billing/local/confirm-setup`, {
      method: 'POST',
      headers,
      body: {
        clientSecret: intent.json().clientSecret,
        number: '4242 4242 4242 4242',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 3,
        cvc: '123',
      },
    });
    expect(card.status, card.body).toBeLessThan(300);
    const checkout = await request(`${url}/api/billing/intents/checkout`, {
      method: 'POST',
      headers,
      body: { interval: 'month', quantity: 2 },
    });
    expect(checkout.status, checkout.body).toBeLessThan(300);
    const { subscription } = checkout.json();
    expect(subscription).toMatchObject({ status: 'active', quantity: 2, licenseKey: expect.any(String) });
    const validated = await request(`${url}/api/licenses/${subscription.licenseKey}/activate`, {
      method: 'POST',
      body: { fingerprint: 'node-1' },
    });
    expect(validated.status, validated.body).toBe(201);
  });

  it('stops cleanly on SIGTERM well within its grace period', async () => {
    const started = Date.now();
    // 30 s grace, as compose.yaml and the Kubernetes manifests give it.
    await podman(['stop', '-t', '30', name]);
    const seconds = (Date.now() - started) / 1000;
    const state = JSON.parse((await podman(['inspect', '--format', '{{ json .State }}', name])).stdout) as { ExitCode: number };
    const logs = (await podman(['logs', name])).stdout;
    expect(logs).toContain('SIGTERM received');
    expect(state.ExitCode, logs.slice(-2000)).toBe(0);
    expect(seconds).toBeLessThan(30);
  });
});
