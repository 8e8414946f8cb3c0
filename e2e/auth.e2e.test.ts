import {
  baseUrl,
  describe,
  expect,
  it,
  latestSignInLink,
  outboxMark,
  screenshot,
  signInByApi,
  uniqueEmail,
  type Browser,
} from './fixtures';

/** A fresh browser for each test; a test signs in itself when it needs a customer. */
let b: Browser;
it.beforeEach(async ({ browser }) => {
  b = await browser();
});

const path = () => new URL(b.page.url()).pathname + new URL(b.page.url()).search;

describe('sign-up by e-mailed link', () => {
  it('signs up, confirms the link, completes onboarding and lands on the dashboard', async () => {
    const { page } = b;
    const email = uniqueEmail('newcomer');
    await page.goto('/signup');
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByRole('button', { name: /send|sign up|continue|link/i }).click();
    await expect.poll(() => page.getByText(/check your (inbox|e-?mail)/i).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(email).first().isVisible()).toBe(true);

    const link = await latestSignInLink(email);
    expect(link.startsWith(`${baseUrl}/login?link=`)).toBe(true);
    await page.goto(link);
    // The link is only redeemed after one confirming click (mail scanners must not use it up).
    const confirm = page.getByRole('button', { name: 'Continue to the portal' });
    await confirm.waitFor();
    const session = await page.context().request.get(`${baseUrl}/api/auth/session`);
    expect(session.status()).toBe(401);
    await confirm.click();

    await page.waitForURL('**/onboarding');
    await page.getByLabel(/first name/i).fill('Grace');
    await page.getByLabel(/last name/i).fill('Hopper');
    await page.getByLabel(/company/i).fill('Acme');
    await page.getByRole('button', { name: /continue|finish|get started|save/i }).click();
    await page.waitForURL('**/app/dashboard');
    await expect.poll(() => page.getByText('Grace Hopper').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText(email).first().isVisible()).toBe(true);
  });

  it('refuses an invalid address with the message and sends nothing', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel(/e-?mail/i).fill('not-an-address');
    await page.getByRole('button', { name: /send|sign in|continue|link/i }).click();
    await expect.poll(() => page.getByText('Enter a valid e-mail address, such as name@example.com').isVisible()).toBe(true);
  });

  it('tells the user when a link was already used', async () => {
    const { page } = b;
    const email = uniqueEmail('reuse');
    await signInByApi(page, email);
    const used = await latestSignInLink(email);
    await page.context().clearCookies();
    await page.goto(used);
    await page.getByRole('button', { name: 'Continue to the portal' }).click();
    await expect
      .poll(() =>
        page
          .getByText(/already used|expired|no longer valid/i)
          .first()
          .isVisible(),
      )
      .toBe(true);
    expect(path()).toMatch(/^\/login/);
  });

  it('returns to the page the user came for after sign-in', async () => {
    const { page } = b;
    const email = uniqueEmail('return');
    await signInByApi(page, email);
    await page.context().clearCookies();
    await page.goto('/app/support');
    await page.waitForURL('**/login?to=%2Fapp%2Fsupport');
    await page.getByLabel(/e-?mail/i).fill(email);
    // The address already has the sign-in e-mail of signInByApi: wait for the new one.
    const after = outboxMark(email);
    await page.getByRole('button', { name: /send|sign in|continue|link/i }).click();
    await expect.poll(() => page.getByText(/check your (inbox|e-?mail)/i).isVisible()).toBe(true);
    const link = await latestSignInLink(email, { after });
    expect(new URL(link).searchParams.get('to')).toBe('/app/support');
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue to the portal' }).click();
    await page.waitForURL('**/app/support');
  });

  it('signs out from the menu, and the old session is gone', async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('leaver'));
    await page.goto('/app/dashboard');
    await page.getByRole('button', { name: /sign out|log out/i }).click();
    await page.waitForURL('**/login');
    const session = await page.context().request.get(`${baseUrl}/api/auth/session`);
    expect(session.status()).toBe(401);
  });
});

describe('redirects', () => {
  it('sends a signed-out visitor of /app/* to /login with the path in `to`', async () => {
    await b.page.goto('/app/licenses');
    await b.page.waitForURL('**/login?to=%2Fapp%2Flicenses');
  });

  it('sends unknown paths to /login', async () => {
    await b.page.goto('/no/such/page');
    await b.page.waitForURL((u) => u.pathname === '/login');
  });

  it('sends a signed-in visitor of a guest-only page to the dashboard, or to `to`', async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('guest-only'));
    await page.goto('/login');
    await page.waitForURL('**/app/dashboard');
    await page.goto('/signup?to=/app/billing');
    await page.waitForURL('**/app/billing');
    await page.goto('/login?to=//evil.example/');
    await page.waitForURL('**/app/dashboard');
    expect(new URL(page.url()).host).toBe(new URL(baseUrl).host);
  });

  it('forces a signed-in user who is not onboarded to /onboarding', async () => {
    const { page } = b;
    await signInByApi(page, uniqueEmail('not-onboarded'), { onboard: false });
    await page.goto('/app/licenses');
    await page.waitForURL('**/onboarding');
  });

  it('sends a signed-out visitor of /onboarding to /login', async () => {
    await b.page.goto('/onboarding');
    await b.page.waitForURL((u) => u.pathname === '/login');
  });
});

describe('screens', () => {
  it('renders login, sign-up, link-sent, link landing and onboarding (screenshots)', async () => {
    const { page } = b;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 820 });
      await page.goto('/login');
      await page.getByLabel(/e-?mail/i).waitFor();
      await screenshot(page, `login-${width}`);
      await page.goto('/signup');
      await page.getByLabel(/e-?mail/i).waitFor();
      await screenshot(page, `signup-${width}`);
      const email = uniqueEmail(`shot${width}`);
      await page.getByLabel(/e-?mail/i).fill(email);
      await page.getByRole('button', { name: /send|sign up|continue|link/i }).click();
      await page.getByText(/check your (inbox|e-?mail)/i).waitFor();
      await screenshot(page, `link-sent-${width}`);
      await page.goto(await latestSignInLink(email));
      await page.getByRole('button', { name: 'Continue to the portal' }).waitFor();
      await screenshot(page, `link-landing-${width}`);
      await page.getByRole('button', { name: 'Continue to the portal' }).click();
      await page.waitForURL('**/onboarding');
      await page.getByLabel(/first name/i).waitFor();
      await screenshot(page, `onboarding-${width}`);
      await page.context().clearCookies();
    }
  });
});
