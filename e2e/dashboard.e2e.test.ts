import type { Page } from 'playwright-core';
import { baseUrl, describe, expect, it, screenshot, uniqueEmail } from './fixtures';

async function activateNode(page: Page, licenseKey: string, n: number) {
  const res = await page.context().request.post(`${baseUrl}/api/licenses/${licenseKey}/activate`, {
    headers: { origin: baseUrl },
    data: { fingerprint: `e2e-node-${n}-${Date.now()}`, hostname: `node-${n}.lab.example` },
  });
  expect([200, 201], await res.text()).toContain(res.status());
}

/** Every card has its data: no skeleton (each is labelled 'Loading …') is left. */
async function cardsLoaded(page: Page) {
  await expect
    .poll(() =>
      page
        .getByRole('main')
        .getByLabel(/^Loading /)
        .count(),
    )
    .toBe(0);
}

describe('dashboard', () => {
  it('shows a new customer the next steps and no warnings', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('dash-new'), fname: 'Grace', lname: 'Hopper' });
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Grace' }).waitFor();
    const steps = page.getByRole('region', { name: 'Get started' });
    await steps.waitFor();
    expect(await steps.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/app/billing');
    expect(await steps.getByRole('link', { name: 'Download the ISO' }).getAttribute('href')).toBe('/app/download-iso');
    // No license key yet: the activation step is shown but held back until the first subscription.
    expect(await steps.getByRole('button', { name: 'Activate a node' }).isDisabled()).toBe(true);
    await page.getByText('No licenses yet').waitFor();
    await page.getByText('No active subscription').waitFor();
    await page.getByText('Community support').waitFor();
    await page.getByRole('region', { name: 'Latest ISO' }).getByText('version').waitFor();
    expect(await page.getByRole('region', { name: 'Needs your attention' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current')).toBe('page');
    await cardsLoaded(page);
    await screenshot(page, 'dashboard-new-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    await page.getByRole('region', { name: 'Get started' }).waitFor();
    await cardsLoaded(page);
    await screenshot(page, 'dashboard-new-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

    await steps.getByRole('link', { name: 'Choose a plan' }).click();
    await page.waitForURL('**/app/billing');
  });

  it('shows a paying customer their licenses, renewal and support, and warns at the node limit', async ({ customer }) => {
    const { page, licenseKey } = await customer({
      email: uniqueEmail('dash-paying'),
      fname: 'Alan',
      lname: 'Turing',
      subscription: 3,
    });
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Alan' }).waitFor();

    const subs = page.getByRole('region', { name: 'Subscription' });
    await subs.getByText('3 nodes · monthly').waitFor();
    await subs.getByText('Active').waitFor();
    await subs.getByText('Renews on', { exact: true }).waitFor();
    await subs.getByText(/^\$[\d,]+\.\d\d$/).waitFor();
    const licenses = page.getByRole('region', { name: 'Licenses' });
    await licenses.getByText('0 of 3').waitFor();
    await page.getByRole('region', { name: 'Support' }).getByText('Standard support').waitFor();
    // Subscribed, no node yet: the remaining steps are still offered; nothing needs attention.
    await page.getByRole('region', { name: 'Get started' }).getByText('Subscribed').waitFor();
    expect(
      await page.getByRole('region', { name: 'Get started' }).getByRole('link', { name: 'Activate a node' }).getAttribute('href'),
    ).toBe('/app/licenses');
    expect(await page.getByRole('region', { name: 'Needs your attention' }).count()).toBe(0);

    for (const n of [1, 2, 3]) await activateNode(page, licenseKey, n);
    await page.reload();
    await licenses.getByText('3 of 3').waitFor();
    const attention = page.getByRole('region', { name: 'Needs your attention' });
    await attention.getByText('A license is at its node limit').waitFor();
    expect(await attention.getByRole('link', { name: 'View license' }).getAttribute('href')).toBe(
      `/app/licenses?highlight=${licenseKey}`,
    );
    expect(await page.getByRole('region', { name: 'Get started' }).count()).toBe(0);
    await cardsLoaded(page);
    await screenshot(page, 'dashboard-paying-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    await attention.waitFor();
    await cardsLoaded(page);
    await screenshot(page, 'dashboard-paying-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });
});
