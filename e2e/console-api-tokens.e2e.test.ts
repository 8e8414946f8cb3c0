import type { Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { consoleUrl, describe, expect, it } from './console-fixtures';
import { screenshot, transitionsDone } from './fixtures';

/** The secret shown in the dialog, read from its block. */
const secretIn = async (page: Page) =>
  (
    (await page
      .getByRole('dialog', { name: 'Copy the new API token' })
      .getByLabel(/^Token “/)
      .textContent()) ?? ''
  ).trim();

const consoleApi = (path: string, secret: string, init: RequestInit = {}) =>
  fetch(`${consoleUrl}${path}`, { ...init, headers: { authorization: `Bearer ${secret}`, ...init.headers } });

async function createToken(page: Page, name: string, role: RegExp, expiry: string, shot?: string) {
  await page.getByRole('button', { name: 'Create API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API token' });
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
  await dialog.getByRole('radio', { name: role }).check();
  await dialog.getByLabel('Expires').click();
  await page.getByRole('option', { name: expiry }).click();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('Nightly sync with the CRM');
  if (shot) {
    await transitionsDone(page);
    await expectAccessible(page, `the create dialog (${shot})`);
    await screenshot(page, shot);
  }
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog', { name: 'Copy the new API token' }).waitFor();
  return secretIn(page);
}

describe('staff API tokens in the console', () => {
  it('an owner creates a token shown once, a script uses it on the console API, the owner revokes it', async ({ staff }) => {
    const { page } = await staff('owner');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    await transitionsDone(page);
    await expectAccessible(page, 'the API tokens page');

    const name = `CRM sync ${Date.now()}`;
    const secret = await createToken(page, name, /Billing/, '30 days', 'console-api-tokens-create-1280');
    expect(secret).toMatch(/^stk_[A-Za-z0-9_-]{43}$/);
    const shown = page.getByRole('dialog', { name: 'Copy the new API token' });
    await shown.getByText('This is the only time you see it').waitFor();
    await transitionsDone(page);
    await expectAccessible(page, 'the new staff token, shown once');
    await screenshot(page, 'console-api-tokens-secret-1280');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    // A script, no browser: its role's reads work; staff management and the portal's API do not.
    expect((await consoleApi('/api/console/invoices', secret)).status).toBe(200);
    const docs = await consoleApi('/api/console/docs', secret);
    expect(docs.status).toBe(200);
    expect(((await docs.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await consoleApi('/api/console/staff', secret)).status).toBe(403);
    expect((await consoleApi('/api/console/tokens', secret)).status).toBe(403);

    await page.reload();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    await expect.poll(async () => (await row.textContent()) ?? '').not.toContain('Never');
    await transitionsDone(page);
    await expectAccessible(page, 'the API tokens list');
    await screenshot(page, 'console-api-tokens-list-1280');

    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
    await confirm.getByRole('textbox', { name: /Reason/ }).fill('The CRM sync moved to another system');
    await transitionsDone(page);
    await expectAccessible(page, 'the revoke confirmation');
    await screenshot(page, 'console-api-tokens-revoke-1280');
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached' });
    const after = await consoleApi('/api/console/invoices', secret);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('Bearer');

    // The audit log names who created and revoked it, with the reasons.
    await page.goto('/audit');
    await page.getByText('The CRM sync moved to another system').first().waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    const mobile = `Provisioning ${Date.now()}`;
    await createToken(page, mobile, /Support/, '7 days', 'console-api-tokens-create-390');
    await transitionsDone(page);
    await screenshot(page, 'console-api-tokens-secret-390');
    await page.getByRole('dialog', { name: 'Copy the new API token' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: new RegExp(mobile) }).waitFor();
    await transitionsDone(page);
    await screenshot(page, 'console-api-tokens-list-390');
    await expectAccessible(page, 'the API tokens list at 390 px');
  });

  it('looks finished in dark and passes axe there', async ({ staff }) => {
    const { page } = await staff('owner', { colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'API tokens' }).waitFor();
    const name = `Helpdesk ${Date.now()}`;
    await createToken(page, name, /Support/, '90 days', 'console-api-tokens-create-1280-dark');
    await transitionsDone(page);
    await expectAccessible(page, 'the new staff token, shown once (dark)');
    await screenshot(page, 'console-api-tokens-secret-1280-dark');
    await page.getByRole('dialog', { name: 'Copy the new API token' }).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    await transitionsDone(page);
    await expectAccessible(page, 'the API tokens list (dark)');
    await screenshot(page, 'console-api-tokens-list-1280-dark');
  });

  it('is not offered to support or billing', async ({ staff }) => {
    const { page } = await staff('support');
    await page.goto('/api-tokens');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(await page.getByRole('link', { name: 'API tokens' }).count()).toBe(0);
  });
});
