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
 * role and the context signs in as them. The page is left blank.
 */
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import { it as base, latestSignInLink, outboxMark, uniqueEmail, type Browser, type BrowserOptions } from './fixtures';
import { CONSOLE_OWNER } from './portal-server';

export { describe, expect } from './fixtures';

export const consoleUrl = inject('consoleUrl');
/** Where a browser of the console points: the console's origin, the test server's outbox. */
export const consoleTarget = { baseUrl: consoleUrl, dataDir: inject('dataDir') };
const sameOrigin = { origin: consoleUrl };

export type StaffRole = 'owner' | 'support' | 'billing';
export type Staff = Browser & { email: string; role: StaffRole };

/** Asks for a console sign-in link for `email` through the console's API; answers the e-mailed link. */
export async function requestStaffLink(page: Page, email: string): Promise<string> {
  const after = outboxMark(email);
  const sent = await page.context().request.post(`${consoleUrl}/api/console/auth/link`, { data: { email }, headers: sameOrigin });
  if (sent.status() !== 202) throw new Error(`console link request failed: ${sent.status()}`);
  return latestSignInLink(email, { after });
}

/**
 * Signs `email` in to the console from inside the page's context (its cookies), through the API.
 * Browser test files run two at a time and all sign the one owner in: a link the other file
 * redeemed or replaced meanwhile (410) is asked for again.
 */
async function signInStaff(page: Page, email: string) {
  for (let attempt = 1; ; attempt++) {
    const id = new URL(await requestStaffLink(page, email)).searchParams.get('link');
    const redeemed = await page.context().request.post(`${consoleUrl}/api/console/auth/link/${id}`, { headers: sameOrigin });
    if (redeemed.status() === 200) return;
    if (redeemed.status() !== 410 || attempt === 10)
      throw new Error(`console link redemption failed: ${redeemed.status()} ${await redeemed.text()}`);
  }
}

/** The console test API: the portal's fixtures plus `staff(role, options)`. */
export const it = base.extend('staff', async ({ browser }) => {
  return async (role: StaffRole = 'owner', opts: Omit<BrowserOptions, 'target'> = {}): Promise<Staff> => {
    const b = await browser({ ...opts, target: consoleTarget });
    await signInStaff(b.page, CONSOLE_OWNER);
    if (role === 'owner') return { ...b, email: CONSOLE_OWNER, role };
    const email = uniqueEmail(role, 'vendor.example');
    const added = await b.context.request.post(`${consoleUrl}/api/console/staff`, {
      data: { email, role, reason: 'Browser test member' },
      headers: sameOrigin,
    });
    if (added.status() !== 201 && added.status() !== 200)
      throw new Error(`adding ${role} staff failed: ${added.status()} ${await added.text()}`);
    await signInStaff(b.page, email);
    return { ...b, email, role };
  };
});
