import { consoleUrl, describe, expect, it } from './console-fixtures';
import { screenshot, transitionsDone } from './fixtures';

/**
 * A license staff suspended with a message to the customer: the portal quotes it, as plain text,
 * beside "suspended … contact support" on the dashboard and in the license's drawer, at a phone's
 * width and a desktop's (photographed under .tmp/screenshots, to look at).
 */
const MESSAGE =
  'Your bank reversed the payment of invoice INV-0042 <b>(chargeback)</b>. Write to billing@vendor.example with the ticket number 7102 to settle it and have the license resumed.';

describe('a suspended license with a message to the customer', () => {
  for (const width of [390, 1280]) {
    it(`is quoted on the dashboard and in the license drawer at ${width} px`, async ({ customer, staff }) => {
      const buyer = await customer({ subscription: 12, viewport: { width, height: 844 }, fname: 'Grace', lname: 'Hopper' });
      const support = await staff('support');
      const suspended = await support.context.request.post(`${consoleUrl}/api/console/licenses/${buyer.licenseKey}/suspend`, {
        data: { reason: 'Chargeback opened, ticket 7102 (internal)', customerMessage: MESSAGE },
        headers: { origin: consoleUrl },
      });
      expect(suspended.status()).toBe(200);
      const { page } = buyer;
      const wide = () => page.evaluate(() => document.scrollingElement!.scrollWidth > document.scrollingElement!.clientWidth);

      await page.goto('/app/dashboard');
      const attention = page.getByRole('region', { name: 'Needs your attention' });
      const quote = attention.getByRole('figure');
      await quote.getByText(MESSAGE, { exact: true }).waitFor();
      await quote.getByText('Message from the vendor').waitFor();
      await attention.getByText(`License ${buyer.licenseKey} was suspended by the vendor`, { exact: false }).waitFor();
      expect(await page.getByText('Chargeback opened, ticket 7102 (internal)').count()).toBe(0);
      expect(await page.locator('b', { hasText: '(chargeback)' }).count()).toBe(0);
      await transitionsDone(page);
      await screenshot(page, `portal-suspension-message-dashboard-${width}`);
      expect(await wide()).toBe(false);

      await page.goto('/app/licenses');
      await page.getByRole('button', { name: `Open license ${buyer.licenseKey}` }).click();
      const drawer = page.getByRole('dialog');
      await drawer.getByText('This license is suspended').waitFor();
      await drawer.getByRole('figure').getByText(MESSAGE, { exact: true }).waitFor();
      await transitionsDone(page);
      await screenshot(page, `portal-suspension-message-drawer-${width}`);
    });
  }
});
