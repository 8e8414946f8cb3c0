import { describe, expect, it, screenshot, uniqueEmail } from './fixtures';

describe('support page', () => {
  it('tells a customer without a subscription what they get and how to get more', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('support-none') });
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

  it('shows a subscriber standard support with response targets by severity', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('support-standard'), subscription: 3 });
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
