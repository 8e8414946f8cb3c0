import { afterAll, beforeAll } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { describe, expect, it } from './console-fixtures';
import { latestSignInLink, outboxMark, screenshot, transitionsDone, type Target } from './fixtures';
import { CONSOLE_OWNER, startPortal, type Portal } from './portal-server';

/**
 * The staff second factor in the browser, on a server of its own with the shipped default
 * (CONSOLE_REQUIRE_SECOND_FACTOR=owner,billing): the first owner signs in by link and can do
 * nothing but add a factor; adds a passkey on Chromium's virtual authenticator (the DevTools
 * protocol's WebAuthn domain), sees the recovery codes once, signs out, signs in by link again and
 * passes the passkey step.
 */
let portal: Portal;
let target: Target;
beforeAll(async () => {
  portal = await startPortal({ CONSOLE_REQUIRE_SECOND_FACTOR: 'owner,billing' });
  target = { baseUrl: portal.consoleUrl, dataDir: portal.dataDir };
});
afterAll(() => portal?.stop());

/** A platform authenticator with user verification (a laptop's fingerprint reader), in this page's browser. */
async function virtualAuthenticator(cdp: CDPSession) {
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** The page as it stands at 1280 px in light, then at 390 px in dark (put back to 1280 px, light). */
async function shoot(page: Page, name: string) {
  await transitionsDone(page);
  await screenshot(page, `${name}-1280-light`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await transitionsDone(page);
  await screenshot(page, `${name}-390-dark`);
  await expectAccessible(page, `${name} (390 px, dark)`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Signs in through the sign-in page, the e-mailed link (the outbox) and its Continue page. */
async function signInByLink(page: Page, email: string) {
  const after = outboxMark(email, target);
  await page.goto('/login');
  await page.getByLabel('Work e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.goto(await latestSignInLink(email, { after, target }));
  await page.getByRole('button', { name: 'Continue to the console' }).click();
}

describe('staff second factor', () => {
  it('an owner without a factor cannot act; adds a passkey, signs out, and passes the passkey step at the next sign-in', async ({
    browser,
  }) => {
    const { page, context } = await browser({ target });
    const cdp = await context.newCDPSession(page);
    const authenticatorId = await virtualAuthenticator(cdp);

    await signInByLink(page, CONSOLE_OWNER);
    const setUp = page.getByRole('heading', { level: 1, name: 'Add a second factor' });
    await setUp.waitFor();
    // Nothing else opens: the API refuses, and every page of the console shows this step.
    const refused = await page.request.get('/api/console/staff');
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('SECOND_FACTOR_REQUIRED');
    await page.goto('/staff');
    await setUp.waitFor();
    await transitionsDone(page);
    await expectAccessible(page, 'console second-factor set-up');
    await shoot(page, 'console-second-factor-setup');

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const saved = page.getByRole('region', { name: 'Save your recovery codes' });
    await saved.waitFor();
    const codes = await saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await expectAccessible(page, 'console recovery codes');
    await shoot(page, 'console-recovery-codes');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    await saved.getByRole('button', { name: 'I have saved my codes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
    expect((await page.request.get('/api/console/staff')).status()).toBe(200);

    await page.goto('/security');
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.getByRole('table', { name: 'Your second factors' }).getByText('Passkey', { exact: true }).first().waitFor();
    await page.getByText('10 left').waitFor();
    await transitionsDone(page);
    await expectAccessible(page, 'console security');
    await shoot(page, 'console-security');

    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the vendor console' }).waitFor();

    await signInByLink(page, CONSOLE_OWNER);
    await page.getByRole('heading', { level: 1, name: 'Confirm it is you' }).waitFor();
    expect((await page.request.get('/api/console/overview')).status()).toBe(403);
    await transitionsDone(page);
    await expectAccessible(page, 'console second-factor check');
    await shoot(page, 'console-second-factor-check');
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect((await page.request.get('/api/console/staff')).status()).toBe(200);

    const audit = (await (await page.request.get('/api/console/audit?size=20')).json()) as { items: { action: string }[] };
    expect(audit.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(['staff_signed_in', 'staff_factor_added', 'staff_second_factor_passed']),
    );
  });
});
