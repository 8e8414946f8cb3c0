import type { InjectOptions } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers';
import { KNOWN_BUGS } from './known-bugs';

/**
 * Regression tests of the bugs the properties found (each once listed in known-bugs.ts), asserting
 * the answer the fix gives. A bug found later is first listed in known-bugs.ts with a reproducer
 * here that asserts the buggy answer; once fixed, the reproducer becomes a regression test below.
 */

// One app, configured for Stripe (never reached) so that the webhook exists; the rest behaves alike.
const WEBHOOK_SECRET = 'whsec_known_bugs';
let t: TestApp;
let cookie: string;
let licenseKey: string;
beforeAll(async () => {
  t = await buildTestApp({
    STRIPE_SECRET_KEY: 'sk_test_known_bugs',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_known_bugs',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: 'http://127.0.0.1:9',
    STRIPE_PRICE_MONTH: 'price_month',
    STRIPE_PRICE_YEAR: 'price_year',
  });
  cookie = await t.signIn('known-bugs@example.com');
  licenseKey = (
    await t.app.ctx.services.licenses.issueForEmail({
      email: 'known-bugs@example.com',
      maxNodes: 2,
      expiresAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      actor: 'test',
    })
  ).key;
});
afterAll(() => t?.close());

type Regression = { bug: string; name: string; request: () => InjectOptions; status: number; message: string };

const signedWebhook = (event: unknown): InjectOptions => {
  const payload = JSON.stringify(event);
  const signature = new Stripe('sk_test_known_bugs').webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    timestamp: Math.floor(t.clock.now().getTime() / 1000),
  });
  return {
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  };
};

/** A profile update holding text the database cannot store. */
const unstorableProfile = (name: string, payload: Record<string, string>): Regression => ({
  bug: 'unstorable-text-reaches-the-database',
  name,
  status: 400,
  message: 'Remove the invisible control characters from this text',
  request: () => ({ method: 'PATCH', url: '/api/users/profile', headers: { cookie }, payload }),
});

const REGRESSIONS: Regression[] = [
  {
    bug: 'router-errors-skip-the-error-handler',
    name: 'a 101-character invoice id (reaches validation: an unknown invoice)',
    status: 404,
    message: 'The invoice was not found',
    request: () => ({ method: 'GET', url: `/api/billing/invoices/${'A'.repeat(101)}`, headers: { cookie } }),
  },
  {
    bug: 'router-errors-skip-the-error-handler',
    name: 'a broken percent-encoding in a path',
    status: 400,
    message: 'This address is not valid',
    request: () => ({ method: 'GET', url: '/api/licenses/%E0%A4%A/nodes', headers: { cookie } }),
  },
  unstorableProfile('a NUL in the first name', { fname: 'a\u0000b', lname: 'x' }),
  unstorableProfile('a lone surrogate after a non-ASCII character in the company', {
    fname: 'a',
    lname: 'b',
    company: '\u4e2d\udc00',
  }),
  {
    bug: 'unstorable-text-reaches-the-database',
    name: 'a NUL in a node hostname',
    status: 400,
    message: 'Remove the invisible control characters from this text',
    request: () => ({
      method: 'POST',
      url: `/api/licenses/${licenseKey}/activate`,
      payload: { fingerprint: 'fp-nul', hostname: 'h\u0000' },
    }),
  },
  {
    bug: 'unstorable-text-reaches-the-database',
    name: 'a NUL in a subscription id',
    status: 400,
    message: 'This id is not valid',
    request: () => ({ method: 'GET', url: '/api/billing/subscriptions/sub_x%00/invoices', headers: { cookie } }),
  },
  {
    bug: 'webhook-trusts-the-event-shape',
    name: 'a signed webhook body whose event id is null',
    status: 400,
    message: 'The webhook body is not a Stripe event.',
    request: () => signedWebhook({ id: null, type: 'invoice.paid', data: { object: { id: 'in_1' } } }),
  },
  {
    bug: 'webhook-trusts-the-event-shape',
    name: 'a signed webhook body without data',
    status: 400,
    message: 'The webhook body is not a Stripe event.',
    request: () => signedWebhook({ id: 'evt_no_data', type: 'invoice.paid' }),
  },
];

it('lists no open known bug', () => {
  expect(KNOWN_BUGS.map((b) => b.id)).toEqual([]);
});

describe('fixed bugs answer a clear 4xx in the error shape', () => {
  it.each(REGRESSIONS.map((r) => [`${r.bug}: ${r.name}`, r] as const))('%s', async (_name, r) => {
    const res = await t.app.inject(r.request());
    expect(res.statusCode, res.body).toBe(r.status);
    expect(res.json()).toMatchObject({ message: r.message, code: expect.any(String) });
    expect(res.headers['content-security-policy']).toBeTruthy();
  });

  it('answers 414 in the error shape for a path parameter over 512 characters', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/billing/invoices/${'A'.repeat(600)}`, headers: { cookie } });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ message: 'This address is not valid', code: 'BAD_REQUEST' });
  });
});
