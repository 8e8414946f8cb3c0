import { expectAccessible } from './axe';
import { consoleUrl, describe, expect, it } from './console-fixtures';
import { act, expectLogged, openFromSearch, section } from './console-helpers';
import { uniqueEmail } from './fixtures';

/**
 * Support's license and node actions in the browser, each with its reason: suspend and resume,
 * extend by N days, release a node, issue a complimentary license. Each test makes its own customer.
 */

const DAY_MS = 86_400_000;
/** The console's dates ('medium' style, en-US, UTC like the test browser). */
const shortDate = (ms: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(ms);
/** A name no other test's customer has, for the search by name. */
const uniqueName = () =>
  `Zed${Date.now()
    .toString(36)
    .replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)))}`;

describe('console license actions (support)', () => {
  it('suspends and resumes a license, each with its reason in the staff log', async ({ staff, customer }) => {
    const email = uniqueEmail('suspend');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Suspend' });
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Suspend');
    const licenses = section(page, 'Licenses');
    const menu = licenses.getByRole('button', { name: `Actions for license ${buyer.licenseKey}` });

    await act(page, { opener: menu, item: 'Suspend…', dialog: 'Suspend license', reason: 'Chargeback opened, ticket 5100' });
    await licenses.getByText('Suspended', { exact: true }).waitFor();
    await expectLogged(page, 'Chargeback opened, ticket 5100');

    await act(page, {
      opener: menu,
      item: 'Resume…',
      dialog: 'Resume license',
      reason: 'Chargeback withdrawn, ticket 5100',
      axe: 'console resume dialog',
    });
    await licenses.getByText('Active', { exact: true }).waitFor();
    await expectLogged(page, 'Chargeback withdrawn, ticket 5100');
  });

  it('extends a license by the days asked for', async ({ staff, customer }) => {
    const email = uniqueEmail('extend');
    const buyer = await customer({ subscription: 1, email, fname: 'Ada', lname: 'Extend' });
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, email, new RegExp(email), 'Ada Extend');
    const userId = new URL(page.url()).pathname.split('/').pop();
    const license = async () => {
      const res = await page.request.get(`${consoleUrl}/api/console/customers/${userId}`);
      const body = (await res.json()) as { licenses: { licenseKey: string; expiresAt: string }[] };
      return body.licenses.find((l) => l.licenseKey === buyer.licenseKey)!;
    };
    const expiresAt = Date.parse((await license()).expiresAt);
    const licenses = section(page, 'Licenses');

    await act(page, {
      opener: licenses.getByRole('button', { name: `Actions for license ${buyer.licenseKey}` }),
      item: 'Extend…',
      dialog: 'Extend license',
      reason: 'Grace period while the card is replaced',
      fill: async (dialog) => dialog.getByRole('textbox', { name: /^Days/ }).fill('45'),
      axe: 'console extend dialog',
    });
    await licenses.getByText(shortDate(expiresAt + 45 * DAY_MS), { exact: true }).waitFor();
    expect(Date.parse((await license()).expiresAt) - expiresAt).toBe(45 * DAY_MS);
    await expectLogged(page, 'Grace period while the card is replaced');
  });

  it('finds a customer by hostname and releases one of their nodes', async ({ staff, customer }) => {
    const host = `pve-${Date.now().toString(36)}`;
    const buyer = await customer({ subscription: 2, fname: 'Ada', lname: 'Release' });
    for (const [i, hostname] of [`${host}-a`, `${host}-b`].entries()) {
      const activated = await buyer.page.request.post(`/api/licenses/${buyer.licenseKey}/activate`, {
        data: { fingerprint: `${host}-fp-${i}`, hostname },
      });
      expect(activated.status()).toBe(201);
    }
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, `${host}-b`, new RegExp(`${host}-b`), 'Ada Release');
    const nodes = section(page, 'Nodes');
    await nodes.getByText(`${host}-a`).waitFor();

    await act(page, {
      opener: nodes.getByRole('button', { name: `Actions for node ${host}-b` }),
      item: 'Release node…',
      dialog: 'Release node',
      reason: 'Machine decommissioned, customer asked by phone',
      axe: 'console release dialog',
    });
    await nodes.getByText(`${host}-b`).waitFor({ state: 'detached' });
    await nodes.getByText(`${host}-a`).waitFor();
    await expectLogged(page, 'Machine decommissioned, customer asked by phone');
    const validated = await buyer.page.request.post(`/api/licenses/${buyer.licenseKey}/activate`, {
      data: { fingerprint: `${host}-fp-2`, hostname: `${host}-c` },
    });
    expect(validated.status(), 'the released place is free again').toBe(201);
  });

  it('finds a customer by name and issues a complimentary license', async ({ staff, customer }) => {
    const lname = uniqueName();
    const buyer = await customer({ fname: 'Ada', lname });
    const { page } = await staff('support');
    await page.goto('/overview');
    await openFromSearch(page, lname, new RegExp(`Ada ${lname}`), `Ada ${lname}`);
    const licenses = section(page, 'Licenses');
    await licenses.getByText('No licenses').waitFor();
    await expectAccessible(page, 'console customer page without subscriptions');

    await act(page, {
      opener: page.getByRole('button', { name: 'More actions' }),
      item: 'Issue complimentary license…',
      dialog: 'Issue complimentary license',
      confirm: 'Issue license',
      reason: 'Evaluation for a partner, ticket 5200',
      fill: async (dialog) => {
        await dialog.getByRole('textbox', { name: /^Nodes/ }).fill('3');
        await dialog.getByRole('textbox', { name: /^Days/ }).fill('60');
      },
      axe: 'console issue-license dialog',
    });
    await licenses.getByText('Complimentary').waitFor();
    await expectLogged(page, 'Evaluation for a partner, ticket 5200');

    // The customer has it too, for three nodes.
    const own = await buyer.page.request.get('/api/licenses/');
    expect(own.status()).toBe(200);
    const { items } = (await own.json()) as { items: { maxNodes: number; stripeId: string | null }[] };
    expect(items.map((l) => [l.maxNodes, l.stripeId])).toEqual([[3, null]]);
  });
});
