import { expectAccessible } from './axe';
import { describe, expect, it } from './console-fixtures';
import { screenshot, transitionsDone } from './fixtures';

/**
 * An owner manages a webhook endpoint in the console and reads its delivery log. The endpoint is on
 * a private address the server refuses (no WEBHOOK_ALLOW_PRIVATE here): its attempts are logged as
 * refused, and nothing leaves the machine.
 */
describe('console webhooks (owner)', () => {
  it('adds an endpoint (its secret shown once), reads its delivery log, turns it off and deletes it', async ({
    staff,
    customer,
  }) => {
    const url = `http://10.0.0.1/portal-events-${Date.now().toString(36)}`;
    const { page } = await staff('owner');
    await page.goto('/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await add.getByRole('textbox', { name: /URL/ }).fill(url);
    await add.getByRole('textbox', { name: /Description/ }).fill('CRM in the office network');
    await add.getByRole('textbox', { name: /Reason/ }).fill('CRM sync, ticket 7001');
    await transitionsDone(page);
    await expectAccessible(page, 'console add webhook dialog');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Endpoint added' });
    await expect
      .poll(async () => (await shown.getByLabel('Signing secret', { exact: true }).textContent()) ?? '')
      .toMatch(/^whsec_/);
    await transitionsDone(page);
    await expectAccessible(page, 'console webhook secret');
    await screenshot(page, 'console-webhook-secret-1280-light');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    const link = page.getByRole('link', { name: url });
    await link.waitFor();
    expect(await page.getByText(/whsec_/).count()).toBe(0);

    // A purchase makes events; the server's outbox tries to deliver them and refuses the address.
    await customer({ subscription: 1 });
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Delivery log' }).waitFor();
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    await expect
      .poll(async () => {
        await page.reload();
        await attempts.or(page.getByText('Nothing delivered yet')).waitFor();
        return attempts.getByText('license.issued', { exact: true }).count();
      })
      .toBeGreaterThan(0);
    await expect.poll(() => attempts.getByText(/^Refused/).count()).toBeGreaterThan(0);
    await transitionsDone(page);
    await expectAccessible(page, 'console webhook delivery log');
    await screenshot(page, 'console-webhook-log-1280-light');
    await page
      .getByRole('button', { name: /^Details of attempt 1 of license.issued/ })
      .first()
      .click();
    const details = page.getByRole('dialog', { name: 'Attempt' });
    await details.getByText(/"type": "license.issued"/).waitFor();
    await details
      .getByRole('button', { name: /Close/ })
      .click()
      .catch(() => page.keyboard.press('Escape'));

    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await page.getByRole('button', { name: `Turn off ${url}` }).click();
    const off = page.getByRole('dialog', { name: 'Turn endpoint off' });
    await off.getByRole('textbox', { name: /Reason/ }).fill('CRM migration');
    await off.getByRole('button', { name: 'Turn endpoint off' }).click();
    await off.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `Turn on ${url}` }).waitFor();

    await page.getByRole('button', { name: `Delete ${url}` }).click();
    const del = page.getByRole('dialog', { name: 'Delete endpoint' });
    await del.getByRole('textbox', { name: /Reason/ }).fill('CRM retired');
    await del.getByRole('button', { name: 'Delete endpoint' }).click();
    await del.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: url }).waitFor({ state: 'detached' });
  });
});
