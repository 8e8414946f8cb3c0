import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      trustProxy: false,
      secureCookies: false,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.databaseTimeoutMs).toBe(5_000);
    expect(c.releases.demo).toBe(true);
  });

  it('reads how long requests wait for PostgreSQL from DATABASE_TIMEOUT_MS', () => {
    expect(loadConfig({ DATABASE_TIMEOUT_MS: '30000' }).databaseTimeoutMs).toBe(30_000);
  });

  it.each([
    ['', false],
    ['false', false],
    ['true', true],
    ['127.0.0.1', '127.0.0.1'],
    ['10.0.0.0/8, loopback', '10.0.0.0/8,loopback'],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each([['1'], ['yes'], ['proxy.example']])('refuses TRUST_PROXY=%j naming the variable', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be true, false, or a comma-separated list/);
  });

  it('treats empty variables as unset, as .env.example leaves them', () => {
    const c = loadConfig({
      DEMO_RELEASE: '',
      DATABASE_URL: '',
      SMTP_URL: '',
      PUBLIC_URL: '',
      GOOGLE_CLIENT_ID: '',
      GOOGLE_CLIENT_SECRET: '',
    });
    expect(c.releases.demo).toBe(true);
    expect(c.google).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_TIMEOUT_MS: '0' }, 'DATABASE_TIMEOUT_MS'],
    [{ DATABASE_TIMEOUT_MS: '5s' }, 'DATABASE_TIMEOUT_MS'],
    [{ PUBLIC_URL: 'localhost:3000' }, 'PUBLIC_URL'],
    [{ CURRENCY: 'dollars' }, 'CURRENCY'],
    [{ GOOGLE_CLIENT_ID: 'id' }, 'GOOGLE_CLIENT_SECRET'],
    [{ DEMO_RELEASE: 'maybe' }, 'DEMO_RELEASE'],
    [{ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_PUBLISHABLE_KEY'],
    [{ STRIPE_TAX: 'true' }, 'STRIPE_TAX'],
    [{ STRIPE_TAX: 'yes' }, 'STRIPE_TAX'],
    [{ CONSOLE_PORT: '70000' }, 'CONSOLE_PORT'],
    [{ CONSOLE_PORT: '3000' }, 'CONSOLE_PORT'],
    [{ CONSOLE_PUBLIC_URL: 'ftp://x' }, 'CONSOLE_PUBLIC_URL'],
    [{ CONSOLE_PUBLIC_URL: 'http://localhost:3000' }, 'CONSOLE_PUBLIC_URL'],
    [{ CONSOLE_BOOTSTRAP_EMAIL: 'not an address' }, 'CONSOLE_BOOTSTRAP_EMAIL'],
    [{ CONSOLE_REQUIRE_SECOND_FACTOR: 'owner,admin' }, 'CONSOLE_REQUIRE_SECOND_FACTOR'],
    [{ CONSOLE_SESSION_IDLE_MINUTES: '0' }, 'CONSOLE_SESSION_IDLE_MINUTES'],
  ])('stops on %j with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: `));
  });

  it('reads STRIPE_TAX: off unless true', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    expect(loadConfig(stripe).stripe?.tax).toBe(false);
    expect(loadConfig({ ...stripe, STRIPE_TAX: 'true' }).stripe?.tax).toBe(true);
  });

  it('turns on secure cookies for an https PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com/' })).toMatchObject({
      publicUrl: 'https://portal.example.com',
      secureCookies: true,
    });
  });

  it('serves the console on 127.0.0.1:3001 by default, off with CONSOLE_PORT=0', () => {
    expect(loadConfig({}).console).toEqual({
      port: 3001,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3001',
      secureCookies: false,
      bootstrapEmail: undefined,
      requireSecondFactor: ['owner', 'billing'],
      sessionIdleMinutes: 60,
    });
    expect(loadConfig({ CONSOLE_PORT: '0' }).console.port).toBe(0);
    expect(
      loadConfig({ CONSOLE_PUBLIC_URL: 'https://console.example.com/', CONSOLE_BOOTSTRAP_EMAIL: ' Owner@Example.com ' }).console,
    ).toMatchObject({ publicUrl: 'https://console.example.com', secureCookies: true, bootstrapEmail: 'owner@example.com' });
  });

  it('reads which staff roles need a second factor: a list, all or none', () => {
    const roles = (v: string) => loadConfig({ CONSOLE_REQUIRE_SECOND_FACTOR: v }).console.requireSecondFactor;
    expect(roles('all')).toEqual(['owner', 'support', 'billing']);
    expect(roles('none')).toEqual([]);
    expect(roles(' ')).toEqual(['owner', 'billing']);
    expect(roles(' Support , owner ')).toEqual(['support', 'owner']);
    expect(loadConfig({ CONSOLE_SESSION_IDLE_MINUTES: '15' }).console.sessionIdleMinutes).toBe(15);
  });
});
