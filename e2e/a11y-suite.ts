import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { consoleUrl, it as consoleIt } from './console-fixtures';
import {
  baseUrl,
  describe,
  expect,
  it,
  latestSignInLink,
  screenshot,
  sendSignInLink,
  transitionsDone,
  uniqueEmail,
  type NewCustomer,
} from './fixtures';

/**
 * axe-core on every page and state of the portal, in one colour scheme (a11y-light.e2e.test.ts
 * and a11y-dark.e2e.test.ts: two files, so the browser tests' two workers run the schemes side by
 * side): WCAG 2.0, 2.1 and 2.2 A and AA rules, and no violation allowed. A failure prints each
 * violation's rule, impact, help text and the selectors of the elements, so it can be fixed.
 */

const h1 = (page: Page, name?: string | RegExp) => page.getByRole('heading', { level: 1, ...(name ? { name } : {}) });

async function visit(page: Page, path: string, title?: string | RegExp) {
  await page.goto(path);
  await h1(page, title).waitFor();
}

export function accessibilitySuite(scheme: 'light' | 'dark') {
  describe(`accessibility in the ${scheme} colour scheme`, () => {
    /**
     * Each test opens its own browser in the scheme, or has its own customer (Ada Lovelace), and
     * brings the page to the state it checks; `page` is that test's page.
     */
    const inScheme = { viewport: { width: 1280, height: 900 }, colorScheme: scheme };
    const ada = { ...inScheme, fname: 'Ada', lname: 'Lovelace', company: 'Analytical Engines' };
    let page: Page;
    let email = '';
    let link = '';
    let licenseKey = '';
    let stripeId = '';

    describe('public pages', () => {
      it('/login', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        await visit(page, '/login');
        await page.getByLabel('E-mail address').waitFor();
        expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(scheme);
        await expectAccessible(page, `/login (${scheme})`);
      });

      it('/login with an invalid address', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        await visit(page, '/login');
        await page.getByLabel('E-mail address').fill('not-an-address');
        await page.getByRole('button', { name: 'Send sign-in link' }).click();
        await page.getByText('Enter a valid e-mail address, such as name@example.com').waitFor();
        await expectAccessible(page, `/login, invalid address (${scheme})`);
      });

      it('/signup', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        await visit(page, '/signup');
        await page.getByLabel('E-mail address').waitFor();
        await expectAccessible(page, `/signup (${scheme})`);
      });

      it('link sent', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        email = uniqueEmail(`a11y-${scheme}`);
        await visit(page, '/signup');
        await page.getByLabel('E-mail address').fill(email);
        await page.getByRole('button', { name: 'Send sign-up link' }).click();
        await h1(page, 'Check your inbox').waitFor();
        await expectAccessible(page, `link sent (${scheme})`);
      });

      it('link landing (/login?link=…)', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        email = uniqueEmail(`a11y-${scheme}`);
        await sendSignInLink(page, email);
        link = await latestSignInLink(email);
        await page.goto(link);
        await page.getByRole('button', { name: 'Continue to the portal' }).waitFor();
        await expectAccessible(page, `link landing (${scheme})`);
      });

      it('/onboarding, and with its field errors', async ({ browser }) => {
        ({ page } = await browser(inScheme));
        email = uniqueEmail(`a11y-${scheme}`);
        await page.goto(await sendSignInLink(page, email));
        await page.getByRole('button', { name: 'Continue to the portal' }).click();
        await page.waitForURL('**/onboarding');
        await page.getByLabel(/First name/).waitFor();
        await expectAccessible(page, `/onboarding (${scheme})`);
        await page.getByRole('button', { name: 'Continue to the portal' }).click();
        await expect.poll(() => page.getByLabel(/First name/).getAttribute('aria-invalid')).toBe('true');
        await expectAccessible(page, `/onboarding with errors (${scheme})`);
      });

      it('a used link', async ({ browser, customer }) => {
        // A customer signed in with the link, which used it up.
        ({ email } = await customer({ ...inScheme, email: uniqueEmail(`a11y-${scheme}`), onboard: false }));
        link = await latestSignInLink(email);
        const other = await browser(inScheme);
        await other.page.emulateMedia({ colorScheme: scheme });
        await other.page.goto(link);
        await other.page.getByRole('button', { name: 'Continue to the portal' }).click();
        await h1(other.page, /expired or was already used/).waitFor();
        await expectAccessible(other.page, `used link (${scheme})`);
      });
    });

    describe('signed-in pages without data', () => {
      for (const [path, title] of [
        ['/app/dashboard', undefined],
        ['/app/licenses', 'Licenses'],
        ['/app/support', 'Support'],
        ['/app/download-iso', 'Download ISO'],
        ['/app/billing', 'Billing'],
        ['/app/profile', 'Profile'],
      ] as const) {
        it(path, async ({ customer }) => {
          ({ page } = await customer(ada));
          await visit(page, path, title);
          if (path === '/app/licenses') await page.getByText('No licenses yet').waitFor();
          if (path === '/app/billing') await page.getByText('No cards yet').waitFor();
          await expectAccessible(page, `${path}, no data (${scheme})`);
        });
      }

      it('the checkout priced yearly', async ({ customer }) => {
        ({ page } = await customer(ada));
        await visit(page, '/app/billing', 'Billing');
        await page.getByText('Billed yearly', { exact: true }).click();
        await page.getByText(/You save .+ a year compared with monthly billing\./).waitFor();
        await expectAccessible(page, `/app/billing, yearly checkout (${scheme})`);
      });

      it('the add-card dialog, and with its field errors', async ({ customer }) => {
        ({ page } = await customer(ada));
        await visit(page, '/app/billing', 'Billing');
        await page.getByRole('button', { name: 'Add card', exact: true }).click();
        const add = page.getByRole('dialog', { name: 'Add a card' });
        await add.getByLabel('Card number').waitFor();
        await expect.poll(() => add.getByRole('button', { name: 'Save card' }).isEnabled()).toBe(true);
        await expectAccessible(page, `add-card dialog (${scheme})`);
        await add.getByLabel('Card number').pressSequentially('4242424242424241');
        await add.getByRole('button', { name: 'Save card' }).click();
        await add.getByText('Your card number is invalid.').waitFor();
        await expectAccessible(page, `add-card dialog with errors (${scheme})`);
        await page.keyboard.press('Escape');
        await add.waitFor({ state: 'hidden' });
      });

      it('the side menu opened at 800 px', async ({ customer }) => {
        ({ page } = await customer(ada));
        await page.setViewportSize({ width: 800, height: 900 });
        try {
          await visit(page, '/app/dashboard');
          await page.getByRole('button', { name: 'Open menu' }).click();
          const menu = page.getByRole('navigation', { name: 'Side menu' });
          await expect.poll(() => menu.getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(true);
          await expectAccessible(page, `mobile menu open at 800 px (${scheme})`);
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      });
    });

    describe('signed-in pages with a subscription', () => {
      /** Ada with a subscription of 3 nodes, one of them activated (a11y-node-01). */
      async function subscriber(customer: NewCustomer) {
        ({ page, licenseKey, stripeId } = await customer({ ...ada, subscription: 3 }));
        const activated = await page.context().request.post(`${baseUrl}/api/licenses/${licenseKey}/activate`, {
          data: { fingerprint: 'a11y-fp-1', hostname: 'a11y-node-01' },
        });
        expect(activated.status(), await activated.text()).toBe(201);
      }

      it('/app/dashboard', async ({ customer }) => {
        await subscriber(customer);
        await visit(page, '/app/dashboard');
        await expectAccessible(page, `/app/dashboard with a subscription (${scheme})`);
      });

      it('/app/licenses with a license', async ({ customer }) => {
        await subscriber(customer);
        await visit(page, '/app/licenses', 'Licenses');
        await page.getByRole('table', { name: 'Licenses' }).getByText(licenseKey).waitFor();
        await expectAccessible(page, `/app/licenses with data (${scheme})`);
      });

      it('the license drawer, its activate and validate panels', async ({ customer }) => {
        await subscriber(customer);
        await visit(page, '/app/licenses', 'Licenses');
        await page.getByRole('button', { name: `Open license ${licenseKey}` }).click();
        const drawer = page.getByRole('dialog', { name: 'License details' });
        await drawer.getByRole('table', { name: 'Nodes' }).getByText('a11y-node-01').waitFor();
        await expectAccessible(page, `license drawer (${scheme})`);

        await drawer.getByRole('button', { name: 'Activate node' }).click();
        await drawer.getByRole('button', { name: 'Activate', exact: true }).click();
        await drawer.getByText('Enter the node fingerprint').waitFor();
        await expectAccessible(page, `license drawer, activate with errors (${scheme})`);

        await drawer.getByRole('button', { name: 'Validate', exact: true }).click();
        await drawer.getByText(/^This license is valid/).waitFor();
        await expectAccessible(page, `license drawer, validate (${scheme})`);
      });

      it('the release-node confirmation', async ({ customer }) => {
        await subscriber(customer);
        await page.goto(`/app/licenses?license=${licenseKey}`);
        const drawer = page.getByRole('dialog', { name: 'License details' });
        await drawer.getByRole('button', { name: 'Release node a11y-node-01' }).click();
        const confirm = page.getByRole('dialog', { name: 'Release this node?' });
        await confirm.getByText('leaves this license at once, which frees one of its nodes').waitFor();
        await expectAccessible(page, `release-node modal (${scheme})`);
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'hidden' });
      });

      it('/app/licenses on a phone (cards) with the drawer open', async ({ customer }) => {
        await subscriber(customer);
        await page.setViewportSize({ width: 390, height: 844 });
        try {
          await visit(page, '/app/licenses', 'Licenses');
          const card = page.getByRole('listitem').filter({ hasText: licenseKey });
          await card.waitFor();
          await expectAccessible(page, `/app/licenses at 390 px (${scheme})`);
          await card.getByRole('button', { name: `Open license ${licenseKey}` }).click();
          await page.getByRole('dialog', { name: 'License details' }).getByText('a11y-node-01').waitFor();
          await expectAccessible(page, `license drawer at 390 px (${scheme})`);
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      });

      for (const path of ['/app/support', '/app/download-iso', '/app/profile'] as const) {
        it(`${path} as a subscriber`, async ({ customer }) => {
          await subscriber(customer);
          await page.goto(path);
          await h1(page).waitFor();
          await expectAccessible(page, `${path} with a subscription (${scheme})`);
        });
      }

      it('/app/billing with a subscription', async ({ customer }) => {
        await subscriber(customer);
        await visit(page, '/app/billing', 'Billing');
        await page.getByRole('article').getByRole('table', { name: 'Invoices' }).getByRole('row').nth(1).waitFor();
        await expectAccessible(page, `/app/billing with a subscription (${scheme})`);
      });

      /** Each modal from a fresh billing page: a failure in one leaves nothing open for the next. */
      const subscriptionModal = async (button: string, title: string, prepare?: (modal: Locator) => Promise<void>) => {
        await visit(page, '/app/billing', 'Billing');
        await page.getByRole('article').getByRole('button', { name: button }).click();
        const modal = page.getByRole('dialog', { name: title });
        await modal.getByLabel('Confirmation').waitFor();
        await prepare?.(modal);
        await expectAccessible(page, `${title} modal (${scheme})`);
        await modal.getByRole('button', { name: 'Submit' }).click();
        await modal.getByText('Please type "I confirm" to proceed').waitFor();
        await expectAccessible(page, `${title} modal with errors (${scheme})`);
        await modal.getByRole('button', { name: 'Cancel' }).click();
        await modal.waitFor({ state: 'hidden' });
      };

      it('the change-quantity modal', async ({ customer }) => {
        await subscriber(customer);
        await subscriptionModal('Change quantity', 'Update Subscription Quantity', async (modal) => {
          await modal.getByLabel('New number of nodes').fill('5');
          await modal
            .getByRole('group', { name: 'Charge preview' })
            .getByText(/Charged now/)
            .waitFor();
        });
      });

      it('the billing-period modal', async ({ customer }) => {
        await subscriber(customer);
        await subscriptionModal('Change billing period', 'Update Billing Period', async (modal) => {
          await modal
            .getByRole('group', { name: 'Charge preview' })
            .getByText(/Charged now/)
            .waitFor();
        });
      });

      it('the cancel-subscription modal', async ({ customer }) => {
        await subscriber(customer);
        await subscriptionModal('Cancel subscription', 'Cancel Subscription');
      });

      it('the remove-card confirmation', async ({ customer }) => {
        await subscriber(customer);
        await visit(page, '/app/billing', 'Billing');
        await page.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
        const confirm = page.getByRole('dialog', { name: 'Remove card?' });
        await confirm.getByRole('button', { name: 'Keep card' }).waitFor();
        await expectAccessible(page, `remove-card modal (${scheme})`);
        await confirm.getByRole('button', { name: 'Keep card' }).click();
        await confirm.waitFor({ state: 'hidden' });
      });

      it('a cancelled subscription and the re-activate modal', async ({ customer }) => {
        await subscriber(customer);
        const cancelled = await page
          .context()
          .request.delete(`${baseUrl}/api/billing/subscriptions/${stripeId}/`, { headers: { origin: baseUrl } });
        expect(cancelled.status(), await cancelled.text()).toBe(200);
        await visit(page, '/app/billing', 'Billing');
        await page
          .getByRole('article')
          .getByText(/access until/)
          .waitFor();
        await expectAccessible(page, `/app/billing, cancelled subscription (${scheme})`);
        await subscriptionModal('Re-activate', 'Re-activate subscription');
      });
    });

    /**
     * The console's owner pages: each checked and photographed (under .tmp/screenshots) at 1280 px
     * and on a phone (390 px), in the scheme. The endpoint is on a private address the test server
     * refuses, so its delivery log fills with refused attempts and nothing leaves the machine.
     */
    describe('console pages', () => {
      const widths = [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ] as const;
      const headers = { origin: consoleUrl };

      /** axe at each width, and a full-page screenshot `console-<name>-<width>-<scheme>`. */
      async function atEachWidth(p: Page, name: string, ready: () => Promise<void>) {
        for (const size of widths) {
          await p.setViewportSize(size);
          await ready();
          await transitionsDone(p);
          await expectAccessible(p, `console ${name} at ${size.width} px (${scheme})`);
          // Wide content scrolls inside its own box (a table's), never the page sideways.
          expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
          await screenshot(p, `console-${name}-${size.width}-${scheme}`);
        }
      }

      /** An endpoint added through the console's API, wanting every event. */
      async function endpoint(p: Page): Promise<{ id: string; url: string }> {
        // As long as a real receiver's address often is: it must not widen the page on a phone.
        const url = `http://10.0.0.1/integrations/portal/webhooks/a11y-${scheme}-${Date.now().toString(36)}/events`;
        const res = await p.context().request.post(`${consoleUrl}/api/console/webhooks`, {
          data: { url, description: `CRM (${scheme} scheme check)`, reason: 'Accessibility check' },
          headers,
        });
        expect(res.status(), await res.text()).toBe(201);
        return { id: ((await res.json()) as { endpoint: { id: string } }).endpoint.id, url };
      }

      consoleIt('/webhooks, the endpoint list', async ({ staff }) => {
        ({ page } = await staff('owner', inScheme));
        const { url } = await endpoint(page);
        await page.goto('/webhooks');
        await atEachWidth(page, 'webhooks', async () => {
          await h1(page, 'Webhooks').waitFor();
          await page.getByRole('link', { name: url }).waitFor();
        });
      });

      consoleIt('/webhooks/:id, an endpoint and its delivery log', async ({ staff, customer }) => {
        ({ page } = await staff('owner', inScheme));
        const { id } = await endpoint(page);
        // A purchase makes events; the outbox tries to deliver them and refuses the address.
        await customer({ subscription: 1 });
        await page.goto(`/webhooks/${id}`);
        const attempts = page.getByRole('table', { name: 'Delivery attempts' });
        await expect
          .poll(async () => {
            await page.reload();
            await attempts.or(page.getByText('Nothing delivered yet')).waitFor();
            return attempts.getByText(/^Refused/).count();
          })
          .toBeGreaterThan(0);
        await atEachWidth(page, 'webhook-log', async () => {
          await h1(page, 'Delivery log').waitFor();
          await attempts
            .getByText(/^Refused/)
            .first()
            .waitFor();
        });
      });

      consoleIt('/api-tokens, the staff API tokens', async ({ staff }) => {
        ({ page } = await staff('owner', inScheme));
        const name = `Nightly CRM sync (${scheme})`;
        const res = await page.context().request.post(`${consoleUrl}/api/console/tokens`, {
          data: { name, role: 'billing', expiresInDays: 30, reason: 'Accessibility check' },
          headers,
        });
        expect(res.status(), await res.text()).toBe(201);
        await page.goto('/api-tokens');
        await atEachWidth(page, 'api-tokens', async () => {
          await h1(page, 'API tokens').waitFor();
          await page.getByText(name).first().waitFor();
        });
      });
    });
  });
}
