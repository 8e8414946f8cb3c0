/**
 * How a browser test gets its customer: it asks for one. Every test starts from nothing and
 * builds what it needs on the real server, so any test runs alone (`-t "<name>"`) and the files
 * pass in any order:
 *
 *   import { describe, expect, it } from './fixtures';
 *   it('…', async ({ customer }) => {
 *     const { page, licenseKey } = await customer({ subscription: 3 });
 *
 * - `customer(options)` opens a fresh browser context (no cookies, no storage), signs a new address
 *   in through the outbox e-mail and the API, completes onboarding (unless `onboard: false`), and
 *   when asked saves the test card 4242 4242 4242 4242 (`card: true`) or buys a monthly
 *   subscription of that many nodes (`subscription: n`, which saves the card first). The page is
 *   left blank: the test goes where it wants.
 * - `browser(options)` is the same fresh context without a customer (sign-up, sign-in, redirects).
 * - Both close what they opened after the test; one Chromium serves the whole file.
 * - A state made through the UI (a change whose analytics a test counts, a card on Stripe) is made
 *   by the test itself, or by a helper of its file that drives the same UI.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, errors, type BrowserContext, type Browser as Chromium, type Page } from 'playwright-core';
import { it as base, expect, inject } from 'vitest';
import { chromiumLaunchOptions } from './chromium';

export { describe, expect } from 'vitest';

export const baseUrl = inject('baseUrl');
export const dataDir = inject('dataDir');

/** The portal a browser talks to: the shared one of global-setup unless a test starts its own. */
export type Target = { baseUrl: string; dataDir: string };
const shared: Target = { baseUrl, dataDir };

export type Browser = { context: BrowserContext; page: Page; close: () => Promise<void> };

export type BrowserOptions = {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  target?: Target;
};

/** How long a step waits for what it expects before it fails: a guard against a hang, never a budget. */
export const HANG_GUARD_MS = 120_000;

/** A fresh context (no cookies, no storage: a new profile) with one page at the given viewport. */
async function openContext(chromiumBrowser: Chromium, opts: BrowserOptions = {}): Promise<Browser> {
  const context = await chromiumBrowser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    baseURL: (opts.target ?? shared).baseUrl,
    locale: 'en-US',
    timezoneId: 'UTC',
    ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
  });
  // Hang guards, not budgets (Playwright's own is 30 s): beside another whole suite, at load 26, the
  // console's overview took longer than that to render after sign-in.
  context.setDefaultTimeout(HANG_GUARD_MS);
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

/** The `browser` fixture. */
export type OpenBrowser = (opts?: BrowserOptions) => Promise<Browser>;

export type CustomerOptions = BrowserOptions & {
  /** A new address unless given. */
  email?: string;
  fname?: string;
  lname?: string;
  company?: string;
  /** Complete onboarding (default true). */
  onboard?: boolean;
  /** Save the test card 4242 4242 4242 4242 as the default card. */
  card?: boolean;
  /** Buy a monthly subscription of this many nodes (with the test card), which issues its license. */
  subscription?: number;
};

export type Customer = Browser & { email: string };
export type Subscriber = Customer & Purchase;

/** The `customer` fixture. */
export type NewCustomer = {
  (opts: CustomerOptions & { subscription: number }): Promise<Subscriber>;
  (opts?: CustomerOptions): Promise<Customer>;
};

/**
 * The test API with the browser fixtures: `browser` and `customer` (see the top of this file).
 * One Chromium per file; each test's contexts are closed when it ends, pass or fail.
 */
export const it = base
  // eslint-disable-next-line no-empty-pattern
  .extend('chromium', { scope: 'file' }, async ({}, { onCleanup }) => {
    const launched = await chromium.launch(chromiumLaunchOptions());
    onCleanup(() => launched.close());
    return launched;
  })
  .extend('browser', async ({ chromium: launched }, { onCleanup }) => {
    const opened: Browser[] = [];
    onCleanup(async () => {
      await Promise.all(opened.map((b) => b.close()));
    });
    const open: OpenBrowser = async (opts = {}) => {
      const b = await openContext(launched, opts);
      opened.push(b);
      return b;
    };
    return open;
  })
  .extend('customer', async ({ browser }) => {
    const customer = async (opts: CustomerOptions = {}) => {
      const b = await browser(opts);
      const email = opts.email ?? uniqueEmail('customer');
      await signInByApi(b.page, email, opts);
      if (opts.subscription !== undefined)
        return { ...b, email, ...(await buySubscription(b.page, opts.subscription, opts.target)) };
      if (opts.card) await addTestCard(b.page, opts.target);
      return { ...b, email };
    };
    return customer as NewCustomer;
  });

let counter = 0;
/** A unique address for this run. */
export const uniqueEmail = (prefix = 'user', domain = 'acme.example') =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}@${domain}`;

/** Undoes quoted-printable soft breaks and escapes so the link can be read from the raw .eml. */
function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The sign-in e-mails already in the outbox for `email`: pass it as `after` to wait for a new one. */
export type OutboxMark = ReadonlySet<string>;

function outboxFiles(email: string, target: Target): string[] {
  const dir = path.join(target.dataDir, 'outbox');
  const needle = email.toLowerCase().replace(/[^a-z0-9@._-]/g, '_');
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.eml') && f.includes(needle));
  } catch {
    return []; // the outbox folder appears with the first e-mail
  }
}

/** Marks what the outbox holds for `email` now, before the request that sends the next e-mail. */
export function outboxMark(email: string, target: Target = shared): OutboxMark {
  return new Set(outboxFiles(email, target));
}

/**
 * The newest sign-in link e-mailed to `email`, read from the real outbox folder ($DATA_DIR/outbox).
 * With `after` (an `outboxMark` taken before the request), only an e-mail that was not there then
 * counts, so an earlier link to the same address is never taken for the new one. Waits for the
 * e-mail itself; the timeout only guards against a hang.
 */
export async function latestSignInLink(
  email: string,
  opts: { timeoutMs?: number; after?: OutboxMark; target?: Target } = {},
): Promise<string> {
  const target = opts.target ?? shared;
  const dir = path.join(target.dataDir, 'outbox');
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const files = outboxFiles(email, target)
      .filter((f) => !opts.after?.has(f))
      .map((f) => ({ f, mtime: statSync(path.join(dir, f)).mtimeMs }))
      // File names start with the time they were written, so names break mtime ties in order.
      .sort((a, b) => b.mtime - a.mtime || b.f.localeCompare(a.f));
    if (files[0]) {
      const raw = decodeQuotedPrintable(readFileSync(path.join(dir, files[0].f), 'utf8'));
      const m = raw.match(/https?:\/\/[^\s"<>]+\/login\?link=[A-Za-z0-9_-]{43}(?:&amp;|&)?(?:to=[^\s"<>]*)?/);
      if (m) return m[0].replace(/&amp;/g, '&');
    }
    if (Date.now() > deadline) throw new Error(`no sign-in e-mail for ${email} in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Asks for a sign-in link for `email` through the API and answers the link of the e-mail it sent. */
export async function sendSignInLink(page: Page, email: string, target: Target = shared): Promise<string> {
  const after = outboxMark(email, target);
  const sent = await page
    .context()
    .request.post(`${target.baseUrl}/api/auth/link`, { data: { email }, headers: { origin: target.baseUrl } });
  if (sent.status() !== 202) throw new Error(`link request failed: ${sent.status()}`);
  return latestSignInLink(email, { after, target });
}

/**
 * Signs in through the API from inside the page's context (same cookies as the browser) and, unless
 * told otherwise, completes onboarding. Faster than the UI flow for tests about other pages.
 */
export async function signInByApi(
  page: Page,
  email: string,
  opts: { onboard?: boolean; fname?: string; lname?: string; company?: string; target?: Target } = {},
) {
  const target = opts.target ?? shared;
  const req = page.context().request;
  const link = new URL(await sendSignInLink(page, email, target));
  const id = link.searchParams.get('link');
  const redeemed = await req.get(`${target.baseUrl}/api/auth/link/${id}`);
  if (redeemed.status() !== 200) throw new Error(`link redemption failed: ${redeemed.status()}`);
  if (opts.onboard !== false) {
    const ob = await req.post(`${target.baseUrl}/api/users/onboarding`, {
      data: { fname: opts.fname ?? 'Test', lname: opts.lname ?? 'User', ...(opts.company ? { company: opts.company } : {}) },
      headers: { origin: target.baseUrl },
    });
    if (ob.status() !== 200) throw new Error(`onboarding failed: ${ob.status()}`);
  }
}

/**
 * Saves a screenshot under .tmp/screenshots (for looking at pages; never asserted on). A whole-page
 * capture (Chromium's capture beyond the viewport) once stalled for two minutes on CI's loaded
 * machine while the element captures before it took a second; when it stalls, the visible part is
 * kept instead and the test goes on, since the picture checks nothing.
 */
export async function screenshot(page: Page, name: string) {
  const file = path.resolve(import.meta.dirname, '../.tmp/screenshots', `${name}.png`);
  try {
    await page.screenshot({ path: file, fullPage: true, timeout: 30_000 });
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    console.warn(`screenshot ${name}: the whole-page capture stalled; the visible part is saved instead`);
    await page.screenshot({ path: file });
  }
}

/** Unsafe API calls as the page's signed-in customer: the same-origin header the server asks for. */
const sameOrigin = (target: Target) => ({ origin: target.baseUrl });

/** Saves Stripe's test card 4242… (expiring in a year) through the billing API of the local engine. */
export async function addTestCard(page: Page, target: Target = shared) {
  const req = page.context().request;
  const headers = sameOrigin(target);
  const setup = await req.post(`${target.baseUrl}/api/billing/intents/setup`, { headers });
  if (setup.status() !== 200) throw new Error(`setup intent failed: ${setup.status()} ${await setup.text()}`);
  const { clientSecret } = (await setup.json()) as { clientSecret: string };
  const card = await req.post(`${target.baseUrl}/api/billing/local/confirm-setup`, {
    headers,
    data: { clientSecret, number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123' },
  });
  if (card.status() !== 201) throw new Error(`adding the card failed: ${card.status()} ${await card.text()}`);
}

export type Purchase = { licenseKey: string; stripeId: string };

/**
 * Buys a monthly subscription of `quantity` nodes as the signed-in customer through the billing API
 * (local engine, the test card), which issues its license; answers the ids.
 */
async function buySubscription(page: Page, quantity: number, target: Target = shared): Promise<Purchase> {
  await addTestCard(page, target);
  const checkout = await page.context().request.post(`${target.baseUrl}/api/billing/intents/checkout`, {
    headers: sameOrigin(target),
    data: { interval: 'month', quantity },
  });
  if (checkout.status() !== 201) throw new Error(`checkout failed: ${checkout.status()} ${await checkout.text()}`);
  const { subscription } = (await checkout.json()) as { subscription: { licenseKey: string | null; stripeId: string } };
  if (!subscription.licenseKey) throw new Error('checkout issued no license');
  return { licenseKey: subscription.licenseKey, stripeId: subscription.stripeId };
}

/** The axe-core rule tags every page must pass: WCAG 2.0, 2.1 and 2.2, A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** No finite CSS transition or animation running (drawers, modals, fades); spinners and skeleton pulses loop forever. */
export async function transitionsDone(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity)
            .length,
      ),
    )
    .toBe(0);
}

/**
 * Serves `page` the signed-in pages as the server does when their first reads failed or took too
 * long: without the answers inside (ADR 139). The page then makes its own reads over the network,
 * where a test can hold or fail them.
 */
export async function withoutFirstAnswers(page: Page) {
  await page.route(
    (url) => url.pathname === '/app' || url.pathname.startsWith('/app/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script type="application\/json" id="first-answers">.*?<\/script>/s, '');
      // The body is sent as text: without the encoding and length of the compressed original.
      const { 'content-encoding': _encoding, 'content-length': _length, ...headers } = response.headers();
      await route.fulfill({ response, body, headers });
    },
  );
}
