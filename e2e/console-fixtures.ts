/**
 * The vendor console's browser fixtures. The test server runs the console on its own free port
 * (portal-server.ts) with CONSOLE_OWNER as its first owner; a test asks for a staff member:
 *
 *   it('…', async ({ staff, customer }) => {
 *     const buyer = await customer({ subscription: 2 });
 *     const { page } = await staff('support');
 *
 * `staff(role)` opens a fresh context on the console's origin, signs the owner in through the
 * e-mailed link (the outbox) and the API; for another role the owner adds a new member with that
 * role and the context signs in as them. The page is left blank. A file with a server of its own
 * (dunning.ts) passes that server's console: `staff(role, { target: portal.consoleTarget })`.
 */
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import {
  it as base,
  latestSignInLink,
  outboxMark,
  uniqueEmail,
  type Browser,
  type BrowserOptions,
  type Target,
} from './fixtures';
import { CONSOLE_OWNER } from './portal-server';

export { describe, expect } from './fixtures';

export const consoleUrl = inject('consoleUrl');
/** Where a browser of the console points: the console's origin, the test server's outbox. */
export const consoleTarget = { baseUrl: consoleUrl, dataDir: inject('dataDir') };
const sameOrigin = (target: Target) => ({ origin: target.baseUrl });

export type StaffRole = 'owner' | 'support' | 'billing';
export type Staff = Browser & { email: string; role: StaffRole };

/** Asks for a console sign-in link for `email` through the console's API; answers the e-mailed link. */
export async function requestStaffLink(page: Page, email: string, target: Target = consoleTarget): Promise<string> {
  const after = outboxMark(email, target);
  const sent = await page
    .context()
    .request.post(`${target.baseUrl}/api/console/auth/link`, { data: { email }, headers: sameOrigin(target) });
  if (sent.status() !== 202) throw new Error(`console link request failed: ${sent.status()}`);
  return latestSignInLink(email, { after, target });
}

/**
 * Signs `email` in to the console from inside the page's context (its cookies), through the API.
 * Browser test files run two at a time and all sign the one owner in: a link the other file
 * redeemed or replaced meanwhile (410) is asked for again, after a random pause.
 */
async function signInStaff(page: Page, email: string, target: Target) {
  for (let attempt = 1; ; attempt++) {
    const id = new URL(await requestStaffLink(page, email, target)).searchParams.get('link');
    const redeemed = await page
      .context()
      .request.post(`${target.baseUrl}/api/console/auth/link/${id}`, { headers: sameOrigin(target) });
    if (redeemed.status() === 200) return;
    if (redeemed.status() !== 410 || attempt === 10)
      throw new Error(`console link redemption failed: ${redeemed.status()} ${await redeemed.text()}`);
    // Two files that ask in step would replace each other's link every time: a random pause
    // (a back-off, not a deadline) puts one of them ahead.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 200 * attempt));
  }
}

/**
 * The console test API: the portal's fixtures plus `staff(role, options)`; `options.target` is the
 * console to sign in to (the shared test server's unless a file started its own).
 */
export const it = base.extend('staff', async ({ browser }) => {
  return async (role: StaffRole = 'owner', opts: BrowserOptions = {}): Promise<Staff> => {
    const target = opts.target ?? consoleTarget;
    const b = await browser({ ...opts, target });
    await signInStaff(b.page, CONSOLE_OWNER, target);
    if (role === 'owner') return { ...b, email: CONSOLE_OWNER, role };
    const email = uniqueEmail(role, 'vendor.example');
    const added = await b.context.request.post(`${target.baseUrl}/api/console/staff`, {
      data: { email, role, reason: 'Browser test member' },
      headers: sameOrigin(target),
    });
    if (added.status() !== 201 && added.status() !== 200)
      throw new Error(`adding ${role} staff failed: ${added.status()} ${await added.text()}`);
    await signInStaff(b.page, email, target);
    return { ...b, email, role };
  };
});
