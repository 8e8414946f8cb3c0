import type { Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { baseUrl, describe, expect, it, screenshot, transitionsDone, uniqueEmail } from './fixtures';

/** The secret shown in the dialog, read from its field. */
const secretIn = async (page: Page) =>
  (
    (await page
      .getByRole('dialog', { name: 'Copy your new API token' })
      .getByLabel(/^Token “/)
      .textContent()) ?? ''
  ).trim();

async function createToken(page: Page, name: string, scopes: RegExp[], expiry: string, shot?: string) {
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API token' });
  await dialog.getByLabel('Name').fill(name);
  for (const scope of scopes) await dialog.getByRole('checkbox', { name: scope }).check();
  await dialog.getByLabel('Expires').click();
  await page.getByRole('option', { name: expiry }).click();
  if (shot) {
    await transitionsDone(page);
    await screenshot(page, shot);
  }
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog', { name: 'Copy your new API token' }).waitFor();
  return secretIn(page);
}

const api = (path: string, secret: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${secret}`, ...headers } });

describe('API tokens on the profile page', () => {
  it('creates a token shown once, which then works without a browser, and revokes it (light)', async ({ customer }) => {
    const { page, licenseKey } = await customer({ email: uniqueEmail('tokens'), subscription: 1, colorScheme: 'light' });
    await page.goto('/app/profile');
    const card = page.getByRole('main');
    await card.getByText('No API tokens').waitFor();

    const secret = await createToken(
      page,
      'image pipeline',
      [/Read licenses/, /Download the ISO/],
      '30 days',
      'api-tokens-create-1280-light',
    );
    expect(secret).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    const shown = page.getByRole('dialog', { name: 'Copy your new API token' });
    await shown.getByText('This is the only time you see it').waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-secret-1280-light');
    await expectAccessible(page, 'the new token, shown once (light)');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    // Shown once: neither the page nor a fresh load holds the secret again.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    const item = page.getByRole('listitem', { name: 'API token image pipeline' });
    await item.getByText('Last used never').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page
      .getByRole('table', { name: 'Activity' })
      .getByText(/Created API token “image pipeline”/)
      .waitFor();

    // The token without any browser: its licenses, and the ISO with Range.
    const licenses = await api('/api/licenses/', secret);
    expect(licenses.status).toBe(200);
    expect(((await licenses.json()) as { items: { licenseKey: string }[] }).items.map((l) => l.licenseKey)).toEqual([licenseKey]);
    const part = await api('/api/downloads/iso', secret, { range: 'bytes=0-1023' });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(1024);
    expect(part.headers.get('x-checksum-sha256')).toMatch(/^[0-9a-f]{64}$/);
    expect((await api('/api/billing/subscriptions/', secret)).status).toBe(403);

    await page.reload();
    await expect.poll(async () => (await item.textContent()) ?? '').not.toContain('Last used never');
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-list-1280-light');
    await expectAccessible(page, 'the tokens list (light)');

    await item.getByRole('button', { name: 'Revoke image pipeline' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API token?' });
    await confirm.getByText(/get 401 from now on/).waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-revoke-1280-light');
    await expectAccessible(page, 'the revoke confirmation (light)');
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('“image pipeline” no longer works.').waitFor();
    await item.waitFor({ state: 'detached' });
    const after = await api('/api/licenses/', secret);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('Bearer');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await card.getByText('No API tokens').waitFor();
    await createToken(page, 'fleet activation', [/Read licenses/, /Release nodes/], 'Never', 'api-tokens-create-390-light');
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-secret-390-light');
    await page.getByRole('dialog', { name: 'Copy your new API token' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('listitem', { name: 'API token fleet activation' }).waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-list-390-light');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });

  it('looks finished in dark, at 1280 and 390 px, and passes axe', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('tokens-dark'), colorScheme: 'dark' });
    await page.goto('/app/profile');
    await page.getByText('No API tokens').waitFor();
    await expectAccessible(page, 'the tokens card, empty (dark)');
    await createToken(page, 'image pipeline', [/Download the ISO/], '90 days', 'api-tokens-create-1280-dark');
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-secret-1280-dark');
    await expectAccessible(page, 'the new token, shown once (dark)');
    await page.getByRole('dialog', { name: 'Copy your new API token' }).getByRole('button', { name: 'Done' }).click();
    const item = page.getByRole('listitem', { name: 'API token image pipeline' });
    await item.waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-list-1280-dark');
    await expectAccessible(page, 'the tokens list (dark)');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await item.waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-list-390-dark');
    await item.getByRole('button', { name: 'Revoke image pipeline' }).click();
    await page.getByRole('dialog', { name: 'Revoke this API token?' }).waitFor();
    await transitionsDone(page);
    await screenshot(page, 'api-tokens-revoke-390-dark');
    await expectAccessible(page, 'the revoke confirmation at 390 px (dark)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });
});
