import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { licenseKeyCheckCharacter, type License, type LicenseNode, formatDate } from '@portal/contract';
import { setAnalyticsSink, type AnalyticsCall } from '../../../lib/analytics';
import { ada, LocationProbe, renderRoutes, userState } from '../../../test/render';
import { LicensesPage } from './licenses-page';
import { fakeFetch } from '@portal/ui/test';

/** Valid keys (shape and check character), so ?highlight= accepts them. */
function validKey(seed: string): string {
  const body = seed.padEnd(24, 'A').slice(0, 24);
  const groups = `${body}${licenseKeyCheckCharacter(body)}`.match(/.{5}/g)!;
  return groups.join('-');
}

const KEY_A = validKey('7K3QFM2XPD9HRTWCV4NBJEZ6');
const KEY_B = validKey('22222333334444455555666A');

const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

const license = (over: Partial<License> = {}): License => ({
  licenseKey: KEY_A,
  status: 'active',
  maxNodes: 3,
  activeNodes: 1,
  expiresAt: at(23 * DAY + 3_600_000),
  createdAt: at(-7 * DAY),
  stripeId: 'sub_1',
  suspensionMessage: null,
  ...over,
});

const node = (over: Partial<LicenseNode> = {}): LicenseNode => ({
  id: '6f1c3a52-3f7e-4a43-9d0a-8b1f3c2d4e5f',
  fingerprint: 'fp-web-01',
  hostname: 'web-01',
  activatedAt: at(-3 * DAY),
  lastSeenAt: at(-5 * 60_000),
  ...over,
});

const page = <T,>(items: T[], extra: { page?: number; size?: number; total?: number } = {}) => ({
  items,
  page: extra.page ?? 1,
  size: extra.size ?? 10,
  total: extra.total ?? items.length,
});

type Answers = Parameters<typeof fakeFetch>[0];

let events: AnalyticsCall[] = [];
beforeEach(() => {
  events = [];
  setAnalyticsSink({ send: (call) => events.push(call), reset: () => undefined });
});
afterEach(() => setAnalyticsSink(null));

function renderPage(answers: Answers, path = '/app/licenses', preloaded = {}) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  const result = renderRoutes(
    [
      {
        path: '/app/licenses',
        element: (
          <>
            <LicensesPage />
            <LocationProbe />
          </>
        ),
      },
      { path: '*', element: <LocationProbe /> },
    ],
    { path, preloaded: { ...userState(ada), ...preloaded } },
  );
  return { ...result, fetch };
}

const listAnswer = (items: License[], extra = {}) => ({ status: 200, body: page(items, extra) });

async function openLicense(key = KEY_A) {
  await userEvent.click(await screen.findByRole('button', { name: `Open license ${key}` }));
  return screen.findByRole('dialog', { name: 'License details' });
}

describe('LicensesPage', () => {
  beforeEach(() => {
    vi.stubGlobal('scrollTo', vi.fn());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows a skeleton, then the licenses: key with copy, status, nodes used of allowed, relative expiry', async () => {
    const { fetch } = renderPage({
      'GET /api/licenses/': listAnswer([
        license(),
        license({ licenseKey: KEY_B, status: 'expired', activeNodes: 2, maxNodes: 2, expiresAt: at(-3 * DAY) }),
      ]),
    });
    expect(screen.getByLabelText('Loading licenses')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Licenses' });
    expect(screen.getByRole('heading', { level: 1, name: 'Licenses' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const first = within(rows[1]!);
    expect(first.getByText(KEY_A)).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Copy license key' })).toBeInTheDocument();
    expect(first.getByText('Active')).toBeInTheDocument();
    expect(first.getByText('1 of 3')).toBeInTheDocument();
    expect(first.getByRole('progressbar', { name: 'Nodes in use' })).toHaveAttribute('aria-valuetext', '1 of 3 nodes in use');
    // A license of a subscription renews with it: its date, not a countdown that contradicts 'Renews on'.
    expect(screen.getByRole('columnheader', { name: 'Valid until' })).toBeInTheDocument();
    expect(first.getByText(formatDate(at(23 * DAY + 3_600_000)))).toBeInTheDocument();
    expect(first.getByText('Follows its subscription')).toBeInTheDocument();
    expect(first.queryByText(/Expires in/)).not.toBeInTheDocument();
    const second = within(rows[2]!);
    expect(second.getByText('Expired')).toBeInTheDocument();
    expect(second.getByText('Expired 3 days ago')).toHaveAttribute('data-tone', 'danger');
    expect(second.getByText('Node limit reached')).toBeInTheDocument();
    expect(screen.getByText('2 licenses')).toBeInTheDocument();
    expect(fetch.calls[0]!.path).toBe('/api/licenses/?page=1&size=10');
    expect(screen.getByRole('link', { name: 'Change nodes in Billing' })).toHaveAttribute('href', '/app/billing');
  });

  it('colours the expiry yellow within 14 days for a license without a subscription', async () => {
    renderPage({
      'GET /api/licenses/': listAnswer([license({ expiresAt: at(5 * DAY + 3_600_000), stripeId: null })]),
    });
    expect(await screen.findByText('Expires in 5 days')).toHaveAttribute('data-tone', 'warn');
  });

  it('gives no countdown or warning for a license its subscription renews', async () => {
    renderPage({ 'GET /api/licenses/': listAnswer([license({ expiresAt: at(5 * DAY + 3_600_000) })]) });
    const valid = await screen.findByText(formatDate(at(5 * DAY + 3_600_000)));
    expect(valid).not.toHaveAttribute('data-tone');
    expect(screen.queryByText(/Expires in/)).not.toBeInTheDocument();
  });

  it('keeps 2 of 3 nodes in the accent colour; only a full license is yellow (a warning, not an error)', async () => {
    renderPage({
      'GET /api/licenses/': listAnswer([
        license({ activeNodes: 2, maxNodes: 3 }),
        license({ licenseKey: KEY_B, activeNodes: 3, maxNodes: 3 }),
      ]),
    });
    const table = await screen.findByRole('table', { name: 'Licenses' });
    const [, normal, full] = within(table).getAllByRole('row');
    const bar = (row: HTMLElement) => within(row).getByRole('progressbar').firstElementChild as HTMLElement;
    expect(bar(normal!).getAttribute('style') ?? '').not.toMatch(/yellow|red/);
    expect(bar(full!).getAttribute('style') ?? '').toMatch(/yellow/);
    expect(within(full!).getByText('Node limit reached')).toHaveAttribute('data-tone', 'warn');
  });

  it('shows the empty state with the way to buy a license in Billing', async () => {
    renderPage({ 'GET /api/licenses/': listAnswer([]) });
    expect(await screen.findByText('No licenses yet')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Subscribe in Billing' });
    expect(link).toHaveAttribute('href', '/app/billing');
    await userEvent.click(link);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/app/billing'));
  });

  it('shows the shared error display and tries again', async () => {
    const { fetch } = renderPage({
      'GET /api/licenses/': {
        status: 503,
        body: { message: 'The portal is busy, try again shortly', code: 'SERVICE_UNAVAILABLE' },
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: The portal is busy, try again shortly');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.path.startsWith('/api/licenses/')).length).toBe(2));
  });

  it('pages through licenses', async () => {
    const { fetch } = renderPage({
      'GET /api/licenses/?page=1&size=10': listAnswer([license()], { total: 12 }),
      'GET /api/licenses/?page=2&size=10': listAnswer([license({ licenseKey: KEY_B })], { page: 2, total: 12 }),
    });
    expect(await screen.findByText('Showing 1–10 of 12 licenses')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText(KEY_B)).toBeInTheDocument();
    expect(screen.getByText('Showing 11–12 of 12 licenses')).toBeInTheDocument();
    expect(fetch.calls.map((c) => c.path)).toContain('/api/licenses/?page=2&size=10');
    expect(screen.getByTestId('location')).toHaveTextContent('/app/licenses?page=2');
  });

  it('takes ?highlight=<key> into license.highlight, marks that license and drops the parameter', async () => {
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView');
    const { store } = renderPage(
      { 'GET /api/licenses/': listAnswer([license({ licenseKey: KEY_B }), license()]) },
      `/app/licenses?highlight=${KEY_A.toLowerCase()}`,
    );
    await waitFor(() => expect(store.getState().license.highlight).toBe(KEY_A));
    const row = (await screen.findByText(KEY_A)).closest('tr')!;
    expect(row).toHaveAttribute('aria-current', 'true');
    expect(screen.getByText(KEY_B).closest('tr')).not.toHaveAttribute('aria-current');
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/licenses$/);
  });

  it('marks the license another page put into license.highlight', async () => {
    renderPage({ 'GET /api/licenses/': listAnswer([license(), license({ licenseKey: KEY_B })]) }, '/app/licenses', {
      license: { highlight: KEY_B },
    });
    expect((await screen.findByText(KEY_B)).closest('tr')).toHaveAttribute('aria-current', 'true');
  });

  it('ignores a malformed ?highlight=', async () => {
    const { store } = renderPage({ 'GET /api/licenses/': listAnswer([license()]) }, '/app/licenses?highlight=nope');
    await screen.findByText(KEY_A);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/licenses$/));
    expect(store.getState().license.highlight).toBeNull();
  });
});

describe('a license opened', () => {
  const nodesPath = `/api/licenses/${KEY_A}/nodes`;
  // Made before each test, not when the file is collected: on a busy machine minutes can pass
  // between the two, and the first node must read "5 minutes ago".
  let base: Answers;
  beforeEach(() => {
    base = {
      'GET /api/licenses/': listAnswer([license({ activeNodes: 2 })]),
      [`GET ${nodesPath}`]: {
        status: 200,
        body: page([node(), node({ id: 'b2', fingerprint: 'fp-old', hostname: null, lastSeenAt: at(-30 * 3_600_000) })]),
      },
    };
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows its nodes: hostname, fingerprint, activated, last seen, stale ones marked', async () => {
    renderPage(base);
    const drawer = await openLicense();
    const table = await within(drawer).findByRole('table', { name: 'Nodes' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('web-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('fp-web-01')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Stale')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('No hostname')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Stale')).toBeInTheDocument();
    expect(within(drawer).getByText('1 node has not been seen for over 24 hours')).toBeInTheDocument();
    expect(within(drawer).getByText('2 of 3 nodes in use')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/app/licenses?license=${KEY_A}`);
  });

  it('opens from the address (?license=<key>) and closes', async () => {
    renderPage(base, `/app/licenses?license=${KEY_A}`);
    const drawer = await screen.findByRole('dialog', { name: 'License details' });
    await within(drawer).findByRole('table', { name: 'Nodes' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/licenses$/));
  });

  it('pages through nodes', async () => {
    const { fetch } = renderPage({
      ...base,
      [`GET ${nodesPath}?page=1&size=10`]: { status: 200, body: page([node()], { total: 11 }) },
      [`GET ${nodesPath}?page=2&size=10`]: {
        status: 200,
        body: page([node({ id: 'c3', hostname: 'db-11', fingerprint: 'fp-11' })], { page: 2, total: 11 }),
      },
    });
    const drawer = await openLicense();
    expect(await within(drawer).findByText('Showing 1–10 of 11 nodes')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Page 2' }));
    expect(await within(drawer).findByText('db-11')).toBeInTheDocument();
    expect(fetch.calls.map((c) => c.path)).toContain(`${nodesPath}?page=2&size=10`);
  });

  it('says when no node is activated yet', async () => {
    renderPage({ ...base, [`GET ${nodesPath}`]: { status: 200, body: page([]) } });
    const drawer = await openLicense();
    expect(await within(drawer).findByText('No nodes activated yet')).toBeInTheDocument();
  });

  it('validates at once and says the answer in words; a fingerprint checks one node', async () => {
    const expiresAt = '2031-03-03T12:00:00Z';
    const answer = {
      valid: true,
      code: 'VALID',
      license: { licenseKey: KEY_A, status: 'active', maxNodes: 3, activeNodes: 2, expiresAt },
      nonce: null,
      checkedAt: new Date().toISOString(),
    };
    const { fetch } = renderPage({ ...base, [`POST /api/licenses/${KEY_A}/validate`]: { status: 200, body: answer } });
    const drawer = await openLicense();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Validate' }));
    expect(
      await within(drawer).findByText(/^This license is valid: 2 of 3 nodes in use, expires on Mar 3, 2031\.$/),
    ).toBeInTheDocument();
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({});
    expect(events).toContainEqual({
      type: 'capture',
      event: 'license_validated',
      properties: { code: 'VALID', with_fingerprint: false },
    });

    await userEvent.type(within(drawer).getByLabelText('Fingerprint'), 'has space');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Check again' }));
    expect(
      await within(drawer).findByText('A fingerprint may only contain printable characters without spaces'),
    ).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(1);

    await userEvent.clear(within(drawer).getByLabelText('Fingerprint'));
    await userEvent.type(within(drawer).getByLabelText('Fingerprint'), 'fp-web-01');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(JSON.parse(fetch.calls.filter((c) => c.method === 'POST')[1]!.body!)).toEqual({ fingerprint: 'fp-web-01' });
  });

  it('activates a node with the contract messages, and shows NODE_LIMIT_REACHED through the error display', async () => {
    const limit =
      'This license allows 3 nodes and all of them are in use. To make room, release a node you no longer use on the Licenses page of the portal, or raise the subscription quantity; then activate again.';
    const { fetch } = renderPage({
      ...base,
      [`POST /api/licenses/${KEY_A}/activate`]: { status: 409, body: { message: limit, code: 'NODE_LIMIT_REACHED' } },
    });
    const drawer = await openLicense();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Activate node' }));
    await userEvent.click(within(drawer).getByRole('button', { name: 'Activate' }));
    expect(await within(drawer).findByText('Enter the node fingerprint')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(within(drawer).getByLabelText(/Fingerprint/), 'fp-e2e-1');
    await userEvent.type(within(drawer).getByLabelText(/Hostname/), 'web-02');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Activate' }));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(`Error: ${limit}`);
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      fingerprint: 'fp-e2e-1',
      hostname: 'web-02',
    });
  });

  it('activates a node and refreshes the nodes', async () => {
    const created = node({ id: 'n3', fingerprint: 'fp-e2e-1', hostname: 'web-02' });
    const { fetch } = renderPage({
      ...base,
      [`POST /api/licenses/${KEY_A}/activate`]: {
        status: 201,
        body: { node: created, license: { ...license({ activeNodes: 3 }), stripeId: undefined } },
      },
    });
    const drawer = await openLicense();
    await within(drawer).findByRole('table', { name: 'Nodes' });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Activate node' }));
    await userEvent.type(within(drawer).getByLabelText(/Fingerprint/), 'fp-e2e-1');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Activate' }));
    expect(await within(drawer).findByText('Node web-02 is activated: 3 of 3 nodes in use.')).toBeInTheDocument();
    await waitFor(() => expect(fetch.calls.filter((c) => c.path.startsWith(nodesPath)).length).toBe(2));
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({ fingerprint: 'fp-e2e-1' });
  });

  it('releases a node only after confirming, then refreshes', async () => {
    const { fetch } = renderPage({ ...base, [`DELETE ${nodesPath}/b2`]: { status: 204 } });
    const drawer = await openLicense();
    await within(drawer).findByRole('table', { name: 'Nodes' });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Release node fp-old' }));
    let confirm = await screen.findByRole('dialog', { name: 'Release this node?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Release this node?' })).not.toBeInTheDocument());
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(within(drawer).getByRole('button', { name: 'Release node fp-old' }));
    confirm = await screen.findByRole('dialog', { name: 'Release this node?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Release node' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.method === 'DELETE' && c.path === `${nodesPath}/b2`)).toBe(true));
    await waitFor(() => expect(fetch.calls.filter((c) => c.path.startsWith(nodesPath) && c.method === 'GET').length).toBe(2));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Release this node?' })).not.toBeInTheDocument());
  });

  it('closes only the confirmation on Escape, leaving the license drawer open beneath', async () => {
    renderPage({ ...base });
    const drawer = await openLicense();
    await within(drawer).findByRole('table', { name: 'Nodes' });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Release node fp-old' }));
    await screen.findByRole('dialog', { name: 'Release this node?' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Release this node?' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'License details' })).toBeInTheDocument();
    // With nothing above it, Escape closes the drawer as before.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'License details' })).not.toBeInTheDocument());
  });

  it('shows a failed release in the confirmation', async () => {
    renderPage({
      ...base,
      [`DELETE ${nodesPath}/b2`]: {
        status: 404,
        body: { message: 'This node was not found on this license', code: 'NOT_FOUND' },
      },
    });
    const drawer = await openLicense();
    await within(drawer).findByRole('table', { name: 'Nodes' });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Release node fp-old' }));
    const confirm = await screen.findByRole('dialog', { name: 'Release this node?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Release node' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('Error: This node was not found on this license');
  });

  it('downloads the signed license file under its name', async () => {
    const file = `${JSON.stringify({ license: { key: KEY_A }, keyId: 'k', algorithm: 'Ed25519', signature: 's' }, null, 2)}\n`;
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:license'), revokeObjectURL: vi.fn() }),
    );
    const clicks: Array<{ href: string; download: string }> = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download });
    });
    const fetch = fakeFetch({ ...base });
    const answers = fetch.fn;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (new URL(request.url).pathname === `/api/licenses/${KEY_A}/file`) {
        return new Response(file, {
          status: 200,
          headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="license-${KEY_A}.json"` },
        });
      }
      return answers(input, init);
    });
    renderRoutes([{ path: '/app/licenses', element: <LicensesPage /> }], { path: '/app/licenses', preloaded: userState(ada) });
    const drawer = await openLicense();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Download license file' }));
    await waitFor(() => expect(clicks).toEqual([{ href: 'blob:license', download: `license-${KEY_A}.json` }]));
    expect(await created[0]!.text()).toBe(file);
    click.mockRestore();
  });

  it('shows a failed download with the error display', async () => {
    renderPage({
      ...base,
      [`GET /api/licenses/${KEY_A}/file`]: { status: 404, body: { message: 'This license was not found', code: 'NOT_FOUND' } },
    });
    const drawer = await openLicense();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Download license file' }));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent('Error: This license was not found');
  });

  it('explains how nodes activate with commands for this key and this portal', async () => {
    renderPage(base);
    const drawer = await openLicense();
    // Folded by default: the nodes come first; the commands are a click away.
    const toggle = within(drawer).getByRole('button', { name: 'How nodes activate' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    const help = await within(drawer).findByRole('region', { name: 'How nodes activate' });
    expect(help).toHaveTextContent(`${window.location.origin}/api/licenses/${KEY_A}/activate`);
    expect(help).toHaveTextContent(`${window.location.origin}/api/licenses/${KEY_A}/validate`);
    expect(within(help).getByRole('button', { name: 'Copy the activate command' })).toBeInTheDocument();
  });

  it('says an expired license cannot take new nodes and links to Billing', async () => {
    renderPage({ ...base, 'GET /api/licenses/': listAnswer([license({ status: 'expired', expiresAt: at(-2 * DAY) })]) });
    const drawer = await openLicense();
    expect(within(drawer).getByText('This license has expired')).toBeInTheDocument();
    expect(within(drawer).getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/app/billing');
  });
});

describe('a suspended license opened', () => {
  const base: Answers = { [`GET /api/licenses/${KEY_A}/nodes`]: { status: 200, body: page([node()]) } };
  afterEach(() => vi.unstubAllGlobals());

  it('quotes, as plain text, what the vendor told the owner about a suspension, beside whom to contact', async () => {
    const message = 'Your bank reversed <b>INV-0042</b>: write to billing@vendor.example to settle it.';
    renderPage({
      ...base,
      'GET /api/licenses/': listAnswer([license({ status: 'suspended', activeNodes: 2, suspensionMessage: message })]),
    });
    const drawer = await openLicense();
    const alert = (await within(drawer).findByText('This license is suspended')).closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/app/support');
    const quote = within(alert).getByRole('figure');
    expect(within(quote).getByText('Message from the vendor')).toBeInTheDocument();
    // The markup is shown as the characters staff typed, never as markup.
    expect(within(quote).getByText(message)).toBeInTheDocument();
    expect(quote.querySelector('b')).toBeNull();
  });

  it('shows no vendor message for a suspended license without one', async () => {
    renderPage({ ...base, 'GET /api/licenses/': listAnswer([license({ status: 'suspended', suspensionMessage: null })]) });
    const drawer = await openLicense();
    expect(await within(drawer).findByText('This license is suspended')).toBeInTheDocument();
    expect(within(drawer).queryByText('Message from the vendor')).toBeNull();
    expect(within(drawer).queryByRole('figure')).toBeNull();
  });
});
