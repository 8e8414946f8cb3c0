import type { Page } from 'playwright-core';
import { baseUrl, describe, expect, it, latestSignInLink, outboxMark, uniqueEmail, withoutFirstAnswers } from './fixtures';

/** The element focus is on: its tag and its accessible text (or the label of a field). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const label = el instanceof HTMLInputElement ? (el.labels?.[0]?.textContent ?? '') : '';
    return { tag: el?.tagName ?? '', text: (el?.textContent ?? '').trim(), label: label.replace(/\s*\*$/, '').trim() };
  });

/** No sideways scrolling: the page is no wider than the viewport. */
const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => {
    const s = document.scrollingElement!;
    return s.scrollWidth <= s.clientWidth;
  });

/** 64 characters before the @ (the most an address may have) and a long domain. */
function longAddress(): string {
  const local = uniqueEmail('x', 'd').split('@')[0]!;
  return `${(local + '-procurement-and-licensing-department-mailbox').slice(0, 64)}@subsidiary-of-a-rather-long-company-name.example`;
}

describe('polish: long addresses and focus', () => {
  for (const width of [1280, 390]) {
    it(`keeps a long e-mail address inside the 'Check your inbox' card at ${width} px and focuses its heading`, async ({
      browser,
    }) => {
      const { page } = await browser({ viewport: { width, height: 844 } });
      const email = longAddress();
      await page.goto('/login');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send sign-in link' }).click();
      const heading = page.getByRole('heading', { level: 1, name: 'Check your inbox' });
      await heading.waitFor();

      // Focus follows the view that replaced the form, instead of dropping to the page body.
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1', text: 'Check your inbox' });

      expect(await noHorizontalScroll(page)).toBe(true);
      const card = page.locator('.mantine-Paper-root').filter({ has: heading });
      const address = page.getByTestId('sent-to');
      expect(await address.textContent()).toBe(email);
      const c = (await card.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(c.x).toBeGreaterThanOrEqual(0);
      expect(c.x + c.width).toBeLessThanOrEqual(viewport.width);
      // Every line of the address lies within the card.
      const lines = await address.evaluate((el) => [...el.getClientRects()].map((r) => ({ left: r.left, right: r.right })));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line.left).toBeGreaterThanOrEqual(c.x);
        expect(line.right).toBeLessThanOrEqual(c.x + c.width);
      }
    });
  }

  it('focuses the primary control of the link landing page and the first field of onboarding', async ({ browser }) => {
    const { page } = await browser();
    const email = uniqueEmail('focus');
    const after = outboxMark(email);
    const sent = await page.context().request.post(`${baseUrl}/api/auth/link`, { data: { email }, headers: { origin: baseUrl } });
    expect(sent.status()).toBe(202);
    await page.goto(await latestSignInLink(email, { after }));

    const cont = page.getByRole('button', { name: 'Continue to the portal' });
    await cont.waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'BUTTON', text: 'Continue to the portal' });

    // Enter on the focused button continues: a new customer goes on to onboarding.
    await page.keyboard.press('Enter');
    await page.waitForURL('**/onboarding');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'INPUT', label: 'First name' });
  });
});

describe('polish: errors with a working Retry', () => {
  it('shows a failed read on Support as an alert, and Retry brings the data', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('retry-support') });
    // The server fails the read until the customer presses Retry.
    let recovered = false;
    let failures = 0;
    let answered = 0;
    await page.route('**/api/products/support', async (route) => {
      if (!recovered) {
        failures += 1;
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Internal Server Error', code: 'INTERNAL' }),
        });
      } else {
        answered += 1;
        await route.continue();
      }
    });
    await withoutFirstAnswers(page);
    await page.goto('/app/support');
    const alert = page.getByRole('main').getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.replace(/\s+/g, ' ')).toContain('Error: Internal Server Error');
    // The read started with the session, and asked once more as the page opened if it had failed
    // by then (docs/decisions/133).
    expect(failures).toBeGreaterThanOrEqual(1);
    expect(failures).toBeLessThanOrEqual(2);
    recovered = true;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 2, name: 'Community support' }).waitFor();
    expect(await page.getByRole('main').getByRole('alert').count()).toBe(0);
    expect(answered).toBe(1);
  });

  it('says the portal could not be reached when a dashboard read fails on the network, and Retry brings the data', async ({
    customer,
  }) => {
    const { page } = await customer({ email: uniqueEmail('retry-dash') });
    // The network fails the read until the customer presses Retry.
    let recovered = false;
    await page.route('**/api/products/support', async (route) => {
      if (!recovered) {
        await route.abort('internetdisconnected');
      } else {
        await route.continue();
      }
    });
    await withoutFirstAnswers(page);
    await page.goto('/app/dashboard');
    const card = page.getByRole('region', { name: 'Support' });
    const alert = card.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.replace(/\s+/g, ' ')).toContain(
      'Error: Could not reach the portal. Check your connection and try again.',
    );
    recovered = true;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await card.getByText('Community support').waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);
  });
});
