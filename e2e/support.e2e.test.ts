import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, screenshot, signInByApi, uniqueEmail, type Browser } from './fixtures';

let b: Browser;
afterEach(async () => {
  await b?.close();
});

/** Buys a subscription through the API as the signed-in user (local billing engine): card, then checkout. */
async function buySubscription(page: Page, quantity: number) {
  const req = page.context().request;
  const headers = { origin: baseUrl };
  const setup = await req.post(`${baseUrl}/api/billing/intents/setup`, { headers });
  expect(setup.status(), await setup.text()).toBe(200);
  const { clientSecret } = (await setup.json()) as { clientSecret: string };
  const confirmed = await req.post(`${baseUrl}/api/billing/local/confirm-setup`, {
    headers,
    data: { clientSecret, number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123' },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(201);
  const checkout = await req.post(`${baseUrl}/api/billing/intents/checkout`, { headers, data: { interval: 'month', quantity } });
  expect([200, 201], await checkout.text()).toContain(checkout.status());
}

describe('support page', () => {
  it('tells a customer without a subscription what they get and how to get more', async () => {
    b = await openBrowser();
    const { page } = b;
    await signInByApi(page, uniqueEmail('support-none'));
    await page.goto('/app/support');
    await page.getByRole('heading', { level: 2, name: 'Community support' }).waitFor();
    await page.getByText('No plan', { exact: true }).waitFor();
    await page.getByText(/no support plan applies/).waitFor();
    expect(await page.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/app/billing');
    const mail = page.getByRole('link', { name: /@/ }).first();
    expect(await mail.getAttribute('href')).toMatch(/^mailto:/);
    await page.getByRole('rowheader', { name: 'Any request' }).waitFor();
    for (const name of ['Documentation', 'Knowledge base', 'Status page']) {
      expect(await page.getByRole('main').getByRole('link', { name }).getAttribute('target'), name).toBe('_blank');
    }
    expect(await page.getByRole('link', { name: 'Support', exact: true }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'support-none-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    await screenshot(page, 'support-none-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });

  it('shows a subscriber standard support with response targets by severity', async () => {
    b = await openBrowser();
    const { page } = b;
    await signInByApi(page, uniqueEmail('support-standard'));
    await buySubscription(page, 3);
    await page.goto('/app/support');
    await page.getByRole('heading', { level: 2, name: 'Standard support' }).waitFor();
    await page.getByText(/You have 3 licensed nodes/).waitFor();
    expect(await page.getByRole('link', { name: 'Add nodes in Billing' }).getAttribute('href')).toBe('/app/billing');
    for (const severity of ['Severity 1 (critical)', 'Severity 2 (high)', 'Severity 3 (normal)', 'Severity 4 (low)']) {
      await page.getByRole('rowheader', { name: severity }).waitFor();
    }
    await screenshot(page, 'support-standard-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    await screenshot(page, 'support-standard-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });
});
