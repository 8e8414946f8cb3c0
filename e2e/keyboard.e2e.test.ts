import type { Locator, Page } from 'playwright-core';
import { baseUrl, describe, expect, HANG_GUARD_MS, it, latestSignInLink, uniqueEmail } from './fixtures';

/**
 * The main flows with the keyboard alone: Tab, Shift+Tab, Enter, Space, Escape and typing, never
 * a click. Addresses are opened with page.goto (as a user follows a link from an e-mail or types
 * the address); every control on the page is reached and used from the keyboard.
 */
/** What has focus, for messages: tag, role, name. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'the page itself';
    const name = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText?.trim().slice(0, 60) ?? '';
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> ${label ?? name}`;
  });
}

const hasFocus = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement, undefined, { timeout: HANG_GUARD_MS });

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, direction: 'forward' | 'back' = 'forward', max = 80) {
  await target.waitFor();
  for (let i = 0; i <= max; i++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(direction === 'forward' ? 'Tab' : 'Shift+Tab');
  }
  throw new Error(
    `${direction === 'forward' ? 'Tab' : 'Shift+Tab'} did not reach ${target} in ${max} presses; focus is on ${await describeFocus(page)}`,
  );
}

/** The focused element shows a focus indicator: an outline, or a ring drawn with box-shadow. */
async function expectVisibleFocus(page: Page, what: string) {
  const style = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return {
      outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1,
      shadow: s.boxShadow !== 'none' && s.boxShadow !== '',
      visible: r.width > 1 && r.height > 1 && s.visibility !== 'hidden',
      detail: `outline: ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}; box-shadow: ${s.boxShadow}`,
    };
  });
  expect(style.visible, `${what} is on screen`).toBe(true);
  expect(style.outline || style.shadow, `${what} shows focus (${style.detail})`).toBe(true);
}

describe('keyboard only', () => {
  it('signs up, opens the link, completes onboarding, skips to the content and moves through the menu', async ({ browser }) => {
    const { page } = await browser({ viewport: { width: 1280, height: 800 } });
    const email = uniqueEmail('keys');

    await page.goto('/login');
    const address = page.getByLabel('E-mail address');
    await address.waitFor();
    expect(await hasFocus(address), 'the e-mail field has focus on arrival').toBe(true);
    await expectVisibleFocus(page, 'the e-mail field');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();

    await page.goto(await latestSignInLink(email));
    const proceed = page.getByRole('button', { name: 'Continue to the portal' });
    await tabTo(page, proceed);
    await expectVisibleFocus(page, "'Continue to the portal'");
    await page.keyboard.press('Enter');
    await page.waitForURL('**/onboarding');

    await tabTo(page, page.getByLabel(/^First name/));
    await page.keyboard.type('Grace');
    await page.keyboard.press('Tab');
    expect(await hasFocus(page.getByLabel(/^Last name/))).toBe(true);
    await page.keyboard.type('Hopper');
    await page.keyboard.press('Tab');
    expect(await hasFocus(page.getByLabel(/^Company/))).toBe(true);
    await page.keyboard.type('Acme');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();

    // 'Skip to content' is the first stop, shown while focused, and takes focus to the page.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await hasFocus(skip), `the first Tab stop is 'Skip to content', not ${await describeFocus(page)}`).toBe(true);
    await expectVisibleFocus(page, "'Skip to content'");
    await page.keyboard.press('Enter');
    expect(await hasFocus(page.getByRole('main'))).toBe(true);

    // Back up to the side menu and follow Licenses.
    const menu = page.getByRole('navigation', { name: 'Side menu' });
    const licenses = menu.getByRole('link', { name: 'Licenses', exact: true });
    await tabTo(page, licenses, 'back');
    await expectVisibleFocus(page, 'the Licenses menu entry');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/licenses');
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    expect(await licenses.getAttribute('aria-current')).toBe('page');
    // The disabled 'Access Control' entry is not a stop on the way.
    await tabTo(page, menu.getByRole('link', { name: 'Support', exact: true }));
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(licenses), `Shift+Tab from Support goes to Licenses, not ${await describeFocus(page)}`).toBe(true);
  });

  it('opens a license and activates a node, then closes the license with Escape', async ({ customer }) => {
    const { page, licenseKey: key } = await customer({
      email: uniqueEmail('keys-lic'),
      viewport: { width: 1280, height: 800 },
      subscription: 3,
    });
    await page.goto('/app/licenses');
    const open = page.getByRole('button', { name: `Open license ${key}` });
    await tabTo(page, open);
    await expectVisibleFocus(page, `'Open license'`);
    await page.keyboard.press('Enter');

    const drawer = page.getByRole('dialog', { name: 'License details' });
    await drawer.getByText('No nodes activated yet').waitFor();
    const activateNode = drawer.getByRole('button', { name: 'Activate node' });
    await tabTo(page, activateNode);
    await page.keyboard.press('Space');
    expect(await activateNode.getAttribute('aria-expanded')).toBe('true');
    const fingerprint = drawer.getByRole('textbox', { name: /^Fingerprint/ });
    await tabTo(page, fingerprint);
    await expectVisibleFocus(page, 'the fingerprint field');
    await page.keyboard.type('fp-keyboard-1');
    await page.keyboard.press('Tab');
    expect(await hasFocus(drawer.getByRole('textbox', { name: /^Hostname/ }))).toBe(true);
    await page.keyboard.type('kb-node-01');
    await page.keyboard.press('Enter');
    await drawer.getByText('Node kb-node-01 is activated: 1 of 3 nodes in use.').waitFor();
    await drawer.getByRole('table', { name: 'Nodes' }).getByRole('row').filter({ hasText: 'kb-node-01' }).waitFor();

    // Escape closes the license and focus returns to the button that opened it.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => hasFocus(open)).toBe(true);
    await expect
      .poll(() =>
        page.getByRole('table', { name: 'Licenses' }).getByRole('row').filter({ hasText: key }).getByText('1 of 3').count(),
      )
      .toBe(1);
  });

  it('opens the menu at 800 px, closes it with Escape, and goes to a page from it', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('keys-menu'), viewport: { width: 800, height: 900 } });
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await tabTo(page, toggle);
    await expectVisibleFocus(page, 'the menu button');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('navigation', { name: 'Side menu' });
    const billing = menu.getByRole('link', { name: 'Billing', exact: true });
    await expect.poll(() => billing.isVisible()).toBe(true);
    await tabTo(page, menu.getByRole('link', { name: 'Home', exact: true }));
    await page.keyboard.press('Escape');
    await expect.poll(() => billing.isVisible()).toBe(false);
    await expect.poll(() => hasFocus(page.getByRole('button', { name: 'Open menu' }))).toBe(true);

    await page.keyboard.press('Enter');
    await expect.poll(() => billing.isVisible()).toBe(true);
    await tabTo(page, billing);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/billing');
    await expect.poll(() => billing.isVisible()).toBe(false);
    // The chosen page has focus, not the link hidden with the drawer.
    await expect.poll(() => hasFocus(page.getByRole('main'))).toBe(true);
  });

  it('adds a card, subscribes, changes the quantity and cancels on the billing page', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('keys-billing'), viewport: { width: 1280, height: 900 } });
    await page.goto('/app/billing');
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();

    // The card, in the dialog: it opens with the number field focused.
    const addCard = page.getByRole('button', { name: 'Add card', exact: true });
    await tabTo(page, addCard);
    await expectVisibleFocus(page, "'Add card'");
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a card' });
    const number = dialog.getByLabel('Card number');
    await expect.poll(() => hasFocus(number)).toBe(true);
    await page.keyboard.type('4242 4242 4242 4242');
    await page.keyboard.press('Tab');
    expect(await hasFocus(dialog.getByLabel('Expiry date'))).toBe(true);
    await page.keyboard.type('1234');
    await page.keyboard.press('Tab');
    expect(await hasFocus(dialog.getByLabel(/^Security code/))).toBe(true);
    await page.keyboard.type('123');
    await expect.poll(() => dialog.getByRole('button', { name: 'Save card' }).isEnabled()).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('listitem', { name: 'Visa ending in 4242' }).waitFor();

    // The checkout: 2 nodes, monthly.
    const nodes = page.getByLabel('Number of nodes');
    await tabTo(page, nodes, 'back');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2');
    await page.getByText('Paid with Visa ending in 4242.').waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Subscribe' }));
    await expectVisibleFocus(page, "'Subscribe'");
    await page.keyboard.press('Enter');
    const subscription = page.getByRole('article');
    await subscription.getByText('2 nodes, monthly').waitFor();

    // Escape closes a change without making it; focus goes back to its button.
    const period = subscription.getByRole('button', { name: 'Change billing period' });
    await tabTo(page, period, 'back');
    await page.keyboard.press('Enter');
    const periodModal = page.getByRole('dialog', { name: 'Update Billing Period' });
    await periodModal.getByLabel('Confirmation').waitFor();
    await page.keyboard.press('Escape');
    await periodModal.waitFor({ state: 'hidden' });
    await expect.poll(() => hasFocus(period)).toBe(true);
    // ... and records the change as cancelled, once.
    const cancelled = await page.evaluate(() =>
      ((window as unknown as { __analytics?: Array<{ type: string; event?: string }> }).__analytics ?? []).filter(
        (c) => c.type === 'capture' && c.event === 'subscription_change_cancelled',
      ),
    );
    expect(cancelled).toEqual([
      {
        type: 'capture',
        event: 'subscription_change_cancelled',
        properties: { type: 'billing_period', stripe_subscription_id: expect.any(String) },
      },
    ]);

    // Change the quantity through its modal, confirmed with 'I confirm'.
    const quantity = subscription.getByRole('button', { name: 'Change quantity' });
    await tabTo(page, quantity, 'back');
    await page.keyboard.press('Enter');
    const quantityModal = page.getByRole('dialog', { name: 'Update Subscription Quantity' });
    const newQuantity = quantityModal.getByLabel('New number of nodes');
    await expect.poll(() => hasFocus(newQuantity)).toBe(true);
    await page.keyboard.type('3');
    await quantityModal.getByRole('group', { name: 'Charge preview' }).waitFor();
    await tabTo(page, quantityModal.getByLabel('Confirmation'));
    await page.keyboard.type('I confirm');
    await tabTo(page, quantityModal.getByRole('button', { name: 'Submit' }));
    await expectVisibleFocus(page, "the modal's Submit");
    const reloaded = page.waitForEvent('load');
    await page.keyboard.press('Enter');
    await reloaded;
    await page.getByRole('article').getByText('3 nodes, monthly').waitFor();

    // Cancel, from a fresh page (the change reloaded it): Space on the button this time.
    const cancel = page.getByRole('article').getByRole('button', { name: 'Cancel subscription' });
    await tabTo(page, cancel);
    await page.keyboard.press('Space');
    const cancelModal = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await tabTo(page, cancelModal.getByLabel('Confirmation'));
    await page.keyboard.type('I confirm');
    const reloadedAgain = page.waitForEvent('load');
    await page.keyboard.press('Enter');
    await reloadedAgain;
    await page
      .getByRole('article')
      .getByText(/access until/)
      .waitFor();
  });

  it('downloads the ISO from the keyboard', async ({ customer }) => {
    const { page } = await customer({ email: uniqueEmail('keys-iso'), viewport: { width: 1280, height: 800 } });
    const info = (await (await page.context().request.get(`${baseUrl}/api/products/pce/download`)).json()) as {
      filename: string;
    };
    await page.goto('/app/download-iso');
    const link = page.getByRole('main').getByRole('link', { name: /^Download ISO \(/ });
    await tabTo(page, link);
    await expectVisibleFocus(page, "'Download ISO'");
    const href = await link.getAttribute('href');
    expect(href).toMatch(/\/api\/products\/pce\/files\//);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe(info.filename);
    await download.cancel();
  });
});
