import { expectAccessible } from './axe';
import { describe, expect, it } from './console-fixtures';
import { act, expectLogged, openFromSearch, searchBox } from './console-helpers';
import { baseUrl, latestSignInLink, outboxMark, uniqueEmail } from './fixtures';

/**
 * The account-wide actions in the browser, each with its reason: resend a sign-in link (the
 * customer's e-mail arrives), end all sessions (the customer's session stops working), delete the
 * customer (typed confirmation). Each test makes its own customer.
 */
describe('console account actions', () => {
  it('support resends a sign-in link and the customer receives it', async ({ staff, customer }) => {
    const email = uniqueEmail('resend');
    await customer({ email, fname: 'Ada', lname: 'Resend' });
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Resend');

    const after = outboxMark(email);
    await act(page, {
      opener: page.getByRole('button', { name: 'Send sign-in link' }),
      dialog: 'Send sign-in link',
      confirm: 'Send link',
      reason: 'Customer lost the first e-mail, ticket 7100',
      axe: 'console send-link dialog',
    });
    const link = await latestSignInLink(email, { after });
    expect(link.startsWith(`${baseUrl}/login?link=`)).toBe(true);
    await expectLogged(page, 'Customer lost the first e-mail, ticket 7100');
  });

  it('support ends all of a customer’s sessions and the customer is signed out', async ({ staff, customer }) => {
    const email = uniqueEmail('sessions');
    const buyer = await customer({ email, fname: 'Ada', lname: 'Sessions' });
    expect((await buyer.page.request.get('/api/auth/session')).status()).toBe(200);
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Sessions');

    await act(page, {
      opener: page.getByRole('button', { name: 'More actions' }),
      item: 'End all sessions…',
      dialog: 'End all sessions',
      confirm: 'End sessions',
      reason: 'Laptop stolen, customer asked to be signed out everywhere',
      axe: 'console end-sessions dialog',
    });
    expect((await buyer.page.request.get('/api/auth/session')).status()).toBe(401);
    await expectLogged(page, 'Laptop stolen, customer asked to be signed out everywhere');
  });

  it('an owner deletes a customer after typing their address', async ({ staff, customer }) => {
    const email = uniqueEmail('delete');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Delete' });
    const { page } = await staff('owner');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Delete');

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete customer…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete customer' });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('GDPR erasure request, ticket 7300');
    // A wrong address is refused in the dialog; nothing is deleted.
    await dialog.getByRole('textbox', { name: /^Confirmation/ }).fill('someone@else.example');
    await dialog.getByRole('button', { name: 'Delete customer' }).click();
    await dialog.getByText('Type the customer’s e-mail address exactly').waitFor();
    await expectAccessible(page, 'console delete dialog with its error');
    expect((await buyer.page.request.get('/api/auth/session')).status()).toBe(200);

    await dialog.getByRole('textbox', { name: /^Confirmation/ }).fill(email);
    await dialog.getByRole('button', { name: 'Delete customer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect((await buyer.page.request.get('/api/auth/session')).status()).toBe(401);

    // The address finds no one any more; the deletion and its reason are in the audit log.
    await searchBox(page).fill(email);
    await page.getByText(/^No customer, license, node, subscription or invoice matches/).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('GDPR erasure request, ticket 7300').waitFor();
    await expectAccessible(page, 'console audit log');
  });
});
