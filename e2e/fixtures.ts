import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const baseUrl = inject('baseUrl');
export const dataDir = inject('dataDir');

/** The portal a browser talks to: the shared one of global-setup unless a test starts its own. */
export type Target = { baseUrl: string; dataDir: string };
const shared: Target = { baseUrl, dataDir };

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Browser = { context: BrowserContext; page: Page; close: () => Promise<void> };

/** A fresh Chromium profile (no cookies) with one page at the given viewport. */
export async function openBrowser(viewport = { width: 1280, height: 800 }, target: Target = shared): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    args: ARGS,
    viewport,
    baseURL: target.baseUrl,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

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

/**
 * Signs in through the API from inside the page's context (same cookies as the browser) and, unless
 * told otherwise, completes onboarding. Faster than the UI flow for tests about other pages.
 */
export async function signInByApi(
  page: Page,
  email: string,
  opts: { onboard?: boolean; fname?: string; lname?: string; target?: Target } = {},
) {
  const target = opts.target ?? shared;
  const req = page.context().request;
  const after = outboxMark(email, target);
  const sent = await req.post(`${target.baseUrl}/api/auth/link`, { data: { email }, headers: { origin: target.baseUrl } });
  if (sent.status() !== 202) throw new Error(`link request failed: ${sent.status()}`);
  const link = new URL(await latestSignInLink(email, { after, target }));
  const id = link.searchParams.get('link');
  const redeemed = await req.get(`${target.baseUrl}/api/auth/link/${id}`);
  if (redeemed.status() !== 200) throw new Error(`link redemption failed: ${redeemed.status()}`);
  if (opts.onboard !== false) {
    const ob = await req.post(`${target.baseUrl}/api/users/onboarding`, {
      data: { fname: opts.fname ?? 'Test', lname: opts.lname ?? 'User' },
      headers: { origin: target.baseUrl },
    });
    if (ob.status() !== 200) throw new Error(`onboarding failed: ${ob.status()}`);
  }
}

/** Saves a screenshot under .tmp/screenshots (for looking at pages; never asserted on). */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../.tmp/screenshots', `${name}.png`), fullPage: true });
}

/**
 * Buys a subscription of `quantity` nodes as the signed-in user through the billing API (local
 * engine, Stripe's test card 4242…), which issues its license; answers the ids.
 */
export async function buySubscription(page: Page, quantity = 3): Promise<{ licenseKey: string; stripeId: string }> {
  const req = page.context().request;
  const headers = { origin: baseUrl };
  const setup = await req.post(`${baseUrl}/api/billing/intents/setup`, { headers });
  if (setup.status() !== 200) throw new Error(`setup intent failed: ${setup.status()} ${await setup.text()}`);
  const { clientSecret } = (await setup.json()) as { clientSecret: string };
  const card = await req.post(`${baseUrl}/api/billing/local/confirm-setup`, {
    headers,
    data: { clientSecret, number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123' },
  });
  if (card.status() !== 201) throw new Error(`adding the card failed: ${card.status()} ${await card.text()}`);
  const checkout = await req.post(`${baseUrl}/api/billing/intents/checkout`, { headers, data: { interval: 'month', quantity } });
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
