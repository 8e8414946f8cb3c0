import { baseUrl, describe, expect, it, latestSignInLink, outboxMark, uniqueEmail, type Browser } from './fixtures';

/**
 * Login CSRF: another page can send the browser to the link exchange of its own (the attacker's)
 * link. The exchange refuses navigations and cross-site requests without using the link up; the
 * landing page names the address the link was sent to before anyone continues.
 */

let b: Browser;
it.beforeEach(async ({ browser }) => {
  b = await browser();
});

async function freshLink(email: string): Promise<{ landing: string; exchange: string }> {
  const after = outboxMark(email);
  const req = b.page.context().request;
  const sent = await req.post(`${baseUrl}/api/auth/link`, { data: { email }, headers: { origin: baseUrl } });
  expect(sent.status()).toBe(202);
  const landing = await latestSignInLink(email, { after });
  const id = new URL(landing).searchParams.get('link');
  return { landing, exchange: `${baseUrl}/api/auth/link/${id}` };
}

const signedIn = async () => (await b.page.context().request.get(`${baseUrl}/api/auth/session`)).status() === 200;

describe('the link exchange refuses what is not the portal page', () => {
  it('a top-level navigation to the exchange (another page sends the browser there) signs nobody in', async () => {
    const { page } = b;
    const email = uniqueEmail('csrf-nav');
    const { landing, exchange } = await freshLink(email);

    // A cross-site page sends the browser to the exchange.
    await page.setContent(`<a id="go" href="${exchange}">win a prize</a>`);
    const crossSite = await Promise.all([page.waitForNavigation(), page.click('#go')]).then(([r]) => r);
    expect(crossSite?.status()).toBe(403);
    expect(await signedIn()).toBe(false);

    // Typed or pasted into the address bar: a navigation too.
    const typed = await page.goto(exchange);
    expect(typed?.status()).toBe(403);
    expect(await signedIn()).toBe(false);

    // The link was not used up: its landing page names the address, then signs in on Continue.
    await page.goto(landing);
    await expect.poll(() => page.getByText(`This link was sent to ${email}.`, { exact: false }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Continue to the portal' }).click();
    await page.waitForURL('**/onboarding');
    expect(await signedIn()).toBe(true);
  });
});
