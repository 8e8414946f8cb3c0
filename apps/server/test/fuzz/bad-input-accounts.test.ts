import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildGoogleTestApp, type GoogleTestApp } from '../google-test-app';
import { ORIGIN, type TestApp } from '../helpers';
import type { TestOidcProvider } from '../oidc-provider';
import { oddText } from './arbitraries';
import { customerWithEverything, publishRelease } from './customers';
import { checkRoute, fuzzedRoutes, type Case, type FuzzTarget } from './harness';

/**
 * Bad input to sign-in (e-mailed links and Google, configured against a real local OpenID
 * provider), the profile, licenses (a real license with an activated node) and downloads (a real
 * release behind a signed URL). The properties are in harness.ts; one app for the whole file.
 */

let google: GoogleTestApp | undefined;
let op: TestOidcProvider;
let t: TestApp;
let target: FuzzTarget;
beforeAll(async () => {
  google = await buildGoogleTestApp('fuzz-accounts-session-secret-0123456789abcdef');
  ({ op, t } = google);
  const customer = await customerWithEverything(t, 'fuzz-accounts@example.com');
  const download = await publishRelease(t, customer.cookie);
  target = { t, cookie: customer.cookie, ids: { ...customer.ids, download } };
});
afterAll(() => google?.close());

/** A flow cookie as a browser might bring it back to the callback: garbage, truncated, oversized. */
const flowCookie = fc
  .oneof(
    oddText.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))),
    fc.stringMatching(/^[A-Za-z0-9_.-]{0,300}$/),
    fc.constantFrom('', '.', '..', 'a.b.c', 'x'.repeat(5000)),
  )
  .map((v) => `portal_oidc=${v}`);

/** Headers the download route reads itself (resumed downloads, caches). */
const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
const downloadHeaders = {
  range: fc.oneof(
    fc.constantFrom(
      'bytes=0-0',
      'bytes=-1',
      'bytes=0-',
      'bytes=4095-',
      'bytes=4096-',
      'bytes=5-1',
      'bytes=-0',
      'bytes=0-1,2-3',
      'bytes=0-1,9999-',
      'bytes=--',
      'bytes=a-b',
      'bytes=1e3-',
      `bytes=${'9'.repeat(20)}-`,
      `bytes=0-${'9'.repeat(16)}`,
      `bytes=${'0-0,'.repeat(2000)}0-0`,
      'items=0-1',
      'bytes = 0 - 1',
      '',
    ),
    printable,
  ),
  'if-range': fc.oneof(fc.constantFrom('"x"', '*', 'W/"1-1"', ''), printable),
  'if-none-match': fc.oneof(fc.constantFrom('*', '"x", *', 'W/"a"', ',,,', ''), printable),
};

/** Google sign-in must redirect to the login page or the identity provider, never anywhere else. */
function redirectsSafely(c: Case, res: { statusCode: number; headers: Record<string, unknown> }) {
  if (res.statusCode < 300 || res.statusCode >= 400) return;
  const location = typeof res.headers.location === 'string' ? res.headers.location : '';
  const to = new URL(location, ORIGIN);
  const onSite = to.origin === ORIGIN && location.startsWith('/') && !location.startsWith('//');
  if (!onSite && to.origin !== new URL(op.issuer).origin) throw new Error(`${c.label}: redirected off-site to ${location}`);
  if (c.url.includes('/callback') && !(onSite && to.pathname === '/login' && to.searchParams.has('error'))) {
    throw new Error(`${c.label}: a forged callback redirected to ${location}, not to /login?error=`);
  }
}

describe.each(fuzzedRoutes('accounts'))('%s', (_id, route) => {
  it('answers bad input with a 4xx error shape (or a safe redirect) and changes nothing', () =>
    checkRoute(target, route, {
      ...(route.google ? { check: redirectsSafely } : {}),
      ...(route.url.endsWith('/callback') ? { extraHeaders: { cookie: flowCookie } } : {}),
      ...(route.access === 'signature' ? { extraHeaders: downloadHeaders } : {}),
    }));
});
