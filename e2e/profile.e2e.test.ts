import { readFileSync } from 'node:fs';
import { baseUrl, describe, expect, it, latestSignInLink, outboxMark, screenshot, uniqueEmail } from './fixtures';

describe('profile page', () => {
  it('edits the name and company, and shows the activity log', async ({ customer }) => {
    const { page, email } = await customer({ email: uniqueEmail('profile'), fname: 'Ada', lname: 'Lovelace' });
    await page.goto('/app/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    expect(await page.getByLabel('E-mail', { exact: true }).inputValue()).toBe(email);
    expect(await page.getByLabel('E-mail', { exact: true }).isEditable()).toBe(false);
    const activity = page.getByRole('table', { name: 'Activity' });
    await activity
      .getByText(/Signed in/)
      .first()
      .waitFor();
    await activity.getByText('Completed onboarding').waitFor();
    await screenshot(page, 'profile-new-1280');

    await page.getByLabel('First name').fill('Augusta Ada');
    await page.getByLabel('Company').fill('Analytical Engines Ltd');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile saved').waitFor();
    await page.getByRole('heading', { name: 'Augusta Ada Lovelace' }).waitFor();
    await activity.getByText('Updated the profile (first name, company)').waitFor();
    // The side menu shows the new name at once.
    await page.getByRole('navigation', { name: 'Side menu' }).getByText('Augusta Ada Lovelace').waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Augusta Ada');
    expect(await page.getByLabel('Company').inputValue()).toBe('Analytical Engines Ltd');

    await page.getByLabel('Last name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Enter your last name').waitFor();
    await screenshot(page, 'profile-data-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    // A fresh load at phone width: the menu is a closed drawer from the start (no transition on screen).
    await page.reload();
    await page.getByRole('button', { name: /open menu/i }).waitFor();
    await screenshot(page, 'profile-data-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  });

  it('downloads my data as JSON', async ({ customer }) => {
    const { page, email } = await customer({ email: uniqueEmail('export') });
    await page.goto('/app/profile');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-account-export-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      format: string;
      profile: { email: string };
      activity: { summary: string }[];
    };
    expect(data.format).toBe('customer-portal-account-export');
    expect(data.profile.email).toBe(email);
    expect(data.activity.some((a) => a.summary.startsWith('Signed in'))).toBe(true);
  });

  it('deletes the account end to end; the same address then starts a new, empty account', async ({ customer }) => {
    const { page, context, email } = await customer({ email: uniqueEmail('delete'), fname: 'Del', lname: 'Eted' });
    await page.goto('/app/profile');
    // A quiet card with one button; the dialog explains and asks for 'I confirm'.
    const zone = page.getByRole('region', { name: 'Delete account' });
    await zone.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText(/Invoices are kept in anonymised form/).waitFor();
    const button = dialog.getByRole('button', { name: 'Delete my account' });
    await dialog.getByLabel('Confirmation').fill(' I confirm ');
    await button.click();
    await dialog.getByText('Please type "I confirm" to proceed').waitFor();
    await dialog.getByLabel('Confirmation').fill('I CONFIRM');
    await screenshot(page, 'profile-delete-1280');
    await button.click();

    // The signed-in layout's redirect to /login?to=… comes first (the address changes at once, the
    // router being declarative); plain /login then replaces it.
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    await page.getByLabel('E-mail address').waitFor();
    await page.getByText('Your account was deleted').waitFor();
    await screenshot(page, 'profile-deleted-login-1280');
    expect((await context.request.get(`${baseUrl}/api/auth/session`)).status()).toBe(401);

    // The same address again: a new sign-in link (the earlier ones were deleted with the account).
    const req = context.request;
    // The newest e-mail to the address is now the account-deleted notice (no link in it); the mark
    // keeps the link below to one sent after this point.
    const after = outboxMark(email);
    expect((await req.post(`${baseUrl}/api/auth/link`, { data: { email }, headers: { origin: baseUrl } })).status()).toBe(202);
    const link = await latestSignInLink(email, { after });
    const redeemed = await req.get(`${baseUrl}/api/auth/link/${new URL(link).searchParams.get('link')}`);
    expect(redeemed.status()).toBe(200);
    await page.goto('/app/dashboard');
    await page.waitForURL('**/onboarding');
    const session = (await (await context.request.get(`${baseUrl}/api/auth/session`)).json()) as {
      user: { fname: string; onboarded: boolean };
    };
    expect(session.user).toMatchObject({ fname: '', onboarded: false });
  });
});
