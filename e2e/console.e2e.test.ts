import { expectAccessible } from './axe';
import { consoleTarget, consoleUrl, describe, expect, it } from './console-fixtures';
import { latestSignInLink, outboxMark, screenshot, transitionsDone, uniqueEmail } from './fixtures';
import { CONSOLE_OWNER } from './portal-server';

/**
 * The vendor console in the browser, against the real server: staff sign-in by e-mailed link,
 * search, a customer's page, an action with its reason, the overview and a list; axe on each.
 */
describe('vendor console', () => {
  it('signs staff in through the e-mailed link and its Continue page, then shows the overview', async ({ browser, staff }) => {
    // An owner of this test's own: other files sign the shared owner in meanwhile, and a newer
    // link replaces an older one, so the link this test reads could be gone when it opens it.
    const owner = await staff('owner');
    const email = uniqueEmail('owner', 'vendor.example');
    const added = await owner.context.request.post(`${consoleUrl}/api/console/staff`, {
      data: { email, role: 'owner', reason: 'Browser test member' },
      headers: { origin: consoleUrl },
    });
    expect(added.status()).toBe(201);

    const { page } = await browser({ target: consoleTarget });
    await page.goto(`${consoleUrl}/customers`);
    await page.getByRole('heading', { name: 'Sign in to the vendor console' }).waitFor();
    await expectAccessible(page, 'console sign-in');

    const after = outboxMark(email);
    await page.getByLabel('Work e-mail address').fill(email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const link = await latestSignInLink(email, { after });
    expect(new URL(link).origin).toBe(consoleUrl);

    await page.goto(link);
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByText('MRR', { exact: true }).waitFor();
    await page.locator('.recharts-surface').first().waitFor();
    await expectAccessible(page, 'console overview');
  });

  it('support finds a customer by part of a license key and suspends the license with a reason', async ({ staff, customer }) => {
    const buyer = await customer({ subscription: 2, fname: 'Grace', lname: 'Hopper', email: uniqueEmail('grace') });
    const activated = await buyer.page.request.post(`/api/licenses/${buyer.licenseKey}/activate`, {
      data: { fingerprint: 'e2e-fp-001', hostname: 'pve-grace-01' },
    });
    expect(activated.status()).toBe(201);
    const { page } = await staff('support');
    await page.goto('/overview');

    const search = page.getByRole('searchbox', { name: /Search customers/ });
    await search.fill(buyer.licenseKey.slice(0, 11));
    const hit = page.getByRole('option', { name: new RegExp(buyer.licenseKey) });
    await hit.waitFor();
    // The first result is selected (Enter opens it): its second line stays readable on the blue.
    await transitionsDone(page);
    await expectAccessible(page, 'console search, the first result selected');
    await screenshot(page, 'console-search-selected');
    await search.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    const licenses = page.getByRole('region', { name: 'Licenses' });
    await licenses.getByText(buyer.licenseKey).waitFor();
    await page.getByRole('region', { name: 'Nodes' }).getByText('pve-grace-01').waitFor();
    await expectAccessible(page, 'console customer page');

    await licenses.getByRole('button', { name: `Actions for license ${buyer.licenseKey}` }).click();
    await page.getByRole('menuitem', { name: 'Suspend…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Suspend license' });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Chargeback opened, ticket 4821');
    await transitionsDone(page);
    await expectAccessible(page, 'console action dialog');
    await dialog.getByRole('button', { name: 'Suspend license' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await licenses.getByText('Suspended', { exact: true }).waitFor();

    await page.getByRole('tab', { name: /Staff actions/ }).click();
    await page.getByText('“Chargeback opened, ticket 4821”').waitFor();
    // Support may not touch billing: no subscription actions, no deletion.
    expect(await page.getByRole('button', { name: /Actions for subscription/ }).count()).toBe(0);
  });

  it('lists subscriptions with filters and CSV, readable on a phone in the dark', async ({ staff, customer }) => {
    await customer({ subscription: 1 });
    const { page } = await staff('billing', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto('/subscriptions?status=active');
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    await page.getByRole('table', { name: 'Subscriptions' }).getByRole('link').first().waitFor();
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('format=csv');
    await expectAccessible(page, 'console subscriptions, 390 px, dark');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invoices' }).waitFor();
    expect(await page.getByRole('link', { name: 'Staff' }).count()).toBe(0);
  });

  it('an owner adds a staff member, changes their role and removes them, each with a reason', async ({ staff }) => {
    const { page } = await staff('owner');
    const email = uniqueEmail('newcomer', 'vendor.example');
    await page.goto('/staff');
    await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
    await page.getByRole('table', { name: 'Staff members' }).getByText(CONSOLE_OWNER).waitFor();
    await expectAccessible(page, 'console staff');

    await page.getByRole('button', { name: 'Add staff member' }).click();
    const add = page.getByRole('dialog', { name: 'Add staff member' });
    await add.getByRole('textbox', { name: /E-mail address/ }).fill(email);
    await add.getByRole('radio', { name: 'Support' }).check();
    await add.getByRole('textbox', { name: /Reason/ }).fill('Joins the support team');
    await expectAccessible(page, 'console add-staff dialog');
    await add.getByRole('button', { name: 'Add staff member' }).click();
    await add.waitFor({ state: 'hidden' });
    const role = page.getByRole('combobox', { name: `Role of ${email}` });
    expect(await role.inputValue()).toBe('Support');

    await role.click();
    await page.getByRole('option', { name: 'Billing' }).click();
    const change = page.getByRole('dialog', { name: 'Change role' });
    await change.getByRole('textbox', { name: /Reason/ }).fill('Moves to accounts');
    await change.getByRole('button', { name: 'Change role' }).click();
    await change.waitFor({ state: 'hidden' });
    await expect.poll(() => role.inputValue()).toBe('Billing');
    const roleOf = async () => {
      const { items } = (await (await page.request.get('/api/console/staff')).json()) as {
        items: { email: string; role: string }[];
      };
      return items.find((m) => m.email === email)?.role;
    };
    await expect.poll(roleOf).toBe('billing');

    await page.getByRole('button', { name: `Remove ${email}` }).click();
    const remove = page.getByRole('dialog', { name: 'Remove staff member' });
    await remove.getByText(email).waitFor();
    await remove.getByRole('textbox', { name: /Reason/ }).fill('Left the company');
    await expectAccessible(page, 'console remove-staff dialog');
    await remove.getByRole('button', { name: 'Remove' }).click();
    await remove.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Staff members' }).getByText(email).waitFor({ state: 'detached' });
    expect(await roleOf()).toBeUndefined();
  });
});
