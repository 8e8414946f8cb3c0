import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import type { TestApp } from '../helpers';
import { NO_IDS, type FuzzIds } from './arbitraries';
import { settle } from './db-state';

/** A customer of the test app: the session cookie and the ids of what they own. */
export type Customer = { email: string; cookie: string; ids: FuzzIds };

async function call(t: TestApp, what: string, opts: InjectOptions, expected: number[]) {
  const res = await t.app.inject(opts);
  if (!expected.includes(res.statusCode)) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Signs in (a new, onboarded user), after letting earlier outbox deliveries finish. */
export async function signIn(t: TestApp, email: string): Promise<Customer> {
  await settle(t);
  const cookie = await t.signIn(email);
  return { email, cookie, ids: { ...NO_IDS, setupSecrets: [] } };
}

/** A fresh setup intent's client secret. */
export async function setupSecret(t: TestApp, cookie: string): Promise<string> {
  const si = await call(t, 'setup intent', { method: 'POST', url: '/api/billing/intents/setup', headers: { cookie } }, [200]);
  return si.clientSecret as string;
}

/** Adds a card through the local billing engine's card form; answers its id. */
export async function addCard(t: TestApp, cookie: string, number = '4242 4242 4242 4242'): Promise<string> {
  const clientSecret = await setupSecret(t, cookie);
  const res = await call(
    t,
    'add card',
    {
      method: 'POST',
      url: '/api/billing/local/confirm-setup',
      headers: { cookie },
      payload: { clientSecret, number, expMonth: 12, expYear: t.clock.now().getUTCFullYear() + 3, cvc: '123' },
    },
    [201],
  );
  return res.paymentMethod.id as string;
}

/**
 * A customer who owns one of everything, bought as a browser would: two cards (so that removing one
 * is allowed), a monthly subscription for 2 nodes paid with the first, its license with one node
 * activated, and the invoice of the purchase.
 */
export async function customerWithEverything(t: TestApp, email: string): Promise<Customer> {
  const customer = await signIn(t, email);
  const { cookie } = customer;
  await addCard(t, cookie);
  const secondCard = await addCard(t, cookie, '5555 5555 5555 4444');
  const bought = await call(
    t,
    'checkout',
    { method: 'POST', url: '/api/billing/intents/checkout', headers: { cookie }, payload: { interval: 'month', quantity: 2 } },
    [201],
  );
  const stripeId = bought.subscription.stripeId as string;
  const licenseKey = bought.subscription.licenseKey as string;
  const fingerprint = `fp-${email}`;
  const activated = await call(
    t,
    'activate',
    { method: 'POST', url: `/api/licenses/${licenseKey}/activate`, payload: { fingerprint, hostname: 'node-1' } },
    [201],
  );
  const invoices = await call(
    t,
    'invoices',
    { method: 'GET', url: `/api/billing/subscriptions/${stripeId}/invoices`, headers: { cookie } },
    [200],
  );
  const invoiceId = invoices.items[0]?.id as string | undefined;
  if (!invoiceId) throw new Error('the purchase left no invoice');
  await settle(t);
  customer.ids = {
    ...customer.ids,
    licenseKey,
    nodeId: activated.node.id as string,
    fingerprint,
    stripeId,
    paymentMethodId: secondCard,
    invoiceId,
  };
  return customer;
}

/** Puts a small ISO into the releases folder and answers a signed download URL's parts for `cookie`. */
export async function publishRelease(t: TestApp, cookie: string): Promise<NonNullable<FuzzIds['download']>> {
  const dir = t.config.releases.dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'pce-1.2.3.iso'), Buffer.alloc(4096, 7));
  const info = await call(t, 'download', { method: 'GET', url: '/api/products/pce/download', headers: { cookie } }, [200]);
  const url = new URL(info.url as string);
  const q = url.searchParams;
  return {
    filename: decodeURIComponent(url.pathname.split('/').pop()!),
    expires: q.get('expires')!,
    u: q.get('u')!,
    sig: q.get('sig')!,
  };
}
