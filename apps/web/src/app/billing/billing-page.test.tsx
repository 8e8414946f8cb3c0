import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LicenseSummary, type Subscription, formatDate } from '@portal/contract';
import { aSubscription } from '../../test/fixtures';
import { ada, portalConfig, renderRoutes, userState } from '../../test/render';
import { BillingPage } from './billing-page';
import { fakeFetch } from '@portal/ui/test';

/** Billing as the router shows it: the billing feature's page, told which licenses staff suspended. */

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const key = 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2';
const running: Subscription = aSubscription({
  stripeId: 'sub_live',
  currentPeriodStart: days(-10),
  currentPeriodEnd: days(20),
  plan: 'Node license',
  unitAmount: 2500,
  licenseKey: key,
  quantity: 12,
});
const ended: Subscription = aSubscription({
  stripeId: 'sub_old',
  status: 'canceled',
  currentPeriodStart: days(-400),
  currentPeriodEnd: days(-35),
  plan: 'Old plan',
  unitAmount: 2500,
  licenseKey: 'ZZZZZ-FGHJK-LMNPQ-RSTUV-WXYZ2',
});
const summary = (suspended: string[], suspensionMessages: Record<string, string> = {}): LicenseSummary => ({
  licenses: 1,
  activeNodes: 0,
  maxNodes: 0,
  atLimit: [],
  expiringSoon: [],
  suspended,
  suspensionMessages,
});

type Answers = Parameters<typeof fakeFetch>[0];

/**
 * Renders /app/billing; `pending` lists paths ("GET /api/…") whose answers never come, so the page
 * stays on its first-load skeleton.
 */
function renderBilling(answers: Answers, pending: string[] = []) {
  const fake = fakeFetch({
    'GET /api/config': { status: 200, body: portalConfig },
    'GET /api/billing/prices': {
      status: 200,
      body: { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 },
    },
    'GET /api/billing/methods/': { status: 200, body: { items: [] } },
    'GET /api/billing/details': { status: 200, body: { details: null } },
    'GET /api/products/licenses': { status: 200, body: summary([]) },
    ...answers,
  });
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (pending.includes(`${request.method} ${url.pathname}`)) return new Promise<Response>(() => {});
    return fake.fn(input, init);
  });
  return renderRoutes([{ path: '/app/billing', element: <BillingPage /> }], {
    path: '/app/billing',
    preloaded: userState(ada),
  });
}

const withSubscriptions = (...items: Subscription[]): Answers => ({
  'GET /api/billing/subscriptions/': { status: 200, body: { items } },
  ...Object.fromEntries(
    items.map((s) => [`GET /api/billing/subscriptions/${s.stripeId}/invoices`, { status: 200, body: { items: [] } }]),
  ),
});

describe('Billing with a suspended license', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the license is suspended instead of Active and Renews, and whom to contact', async () => {
    renderBilling({ ...withSubscriptions(running), 'GET /api/products/licenses': { status: 200, body: summary([key]) } });
    const card = await screen.findByRole('article', { name: 'Node license' });
    expect(within(card).getByText('License suspended')).toBeInTheDocument();
    expect(within(card).queryByText('Active')).not.toBeInTheDocument();
    expect(within(card).queryByText('Renews on')).not.toBeInTheDocument();
    // Still invoiced at the period's end: staff suspended the license, not the billing.
    expect(within(card).getByText('Next invoice on')).toBeInTheDocument();
    expect(within(card).getByText(formatDate(running.currentPeriodEnd))).toBeInTheDocument();
    // The dashboard's words for the same license, with the way to support.
    const alert = within(card).getByRole('status');
    expect(alert).toHaveTextContent('A license is suspended');
    expect(alert).toHaveTextContent(
      `License ${key} was suspended by the vendor: its machines no longer validate, and no other machine can be activated on it. Contact support to learn why and to have it resumed.`,
    );
    expect(within(alert).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/app/support');
  });

  it("quotes the vendor's message to the customer under the suspension, and none where staff left none", async () => {
    const message = 'Your bank reversed the last payment. Write to billing@vendor.example to settle it.';
    renderBilling({
      ...withSubscriptions(running),
      'GET /api/products/licenses': { status: 200, body: summary([key], { [key]: message }) },
    });
    const card = await screen.findByRole('article', { name: 'Node license' });
    const alert = within(card).getByRole('status');
    expect(alert).toHaveTextContent('A license is suspended');
    const quote = within(alert).getByRole('figure');
    expect(within(quote).getByText('Message from the vendor')).toBeInTheDocument();
    expect(within(quote).getByText(message)).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
  });

  it('keeps Active and Renews on for a subscription whose license is not suspended', async () => {
    renderBilling({
      ...withSubscriptions(running),
      'GET /api/products/licenses': { status: 200, body: summary(['OTHER-FGHJK-LMNPQ-RSTUV-WXYZ2']) },
    });
    const card = await screen.findByRole('article', { name: 'Node license' });
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('Renews on')).toBeInTheDocument();
    expect(within(card).queryByText('License suspended')).not.toBeInTheDocument();
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });

  it('lists the subscriptions when the license figures cannot be read', async () => {
    renderBilling({ ...withSubscriptions(running), 'GET /api/products/licenses': { status: 500, body: { message: 'Down' } } });
    const card = await screen.findByRole('article', { name: 'Node license' });
    expect(within(card).getByText('Active')).toBeInTheDocument();
  });
});

describe('the billing skeleton', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The skeleton's parts in document order: 'subscription' cards and the 'grid'. */
  async function skeletonShape() {
    const skeleton = await screen.findByLabelText('Loading billing');
    return [...skeleton.querySelectorAll('[data-testid="subscription-skeleton"], [data-testid="billing-grid-skeleton"]')].map(
      (el) => (el.getAttribute('data-testid') === 'subscription-skeleton' ? 'subscription' : 'grid'),
    );
  }

  it('draws no shape while the subscriptions are on the way (a guessed one would move), and says the page is loading', async () => {
    renderBilling({}, ['GET /api/billing/subscriptions/']);
    const loading = await screen.findByLabelText('Loading billing');
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(await skeletonShape()).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Billing' })).toBeInTheDocument();
  });

  it('draws each subscription the page will list above the grid once they are known', async () => {
    const second = { ...running, stripeId: 'sub_two', plan: 'Second plan' };
    renderBilling(withSubscriptions(running, second, ended), ['GET /api/billing/methods/']);
    // The page's shape: running and ended subscriptions in one list above the checkout and cards.
    await vi.waitFor(async () => expect(await skeletonShape()).toEqual(['subscription', 'subscription', 'subscription', 'grid']));
  });

  it("has a new customer's shape when there is no subscription: the grid alone", async () => {
    renderBilling(withSubscriptions(), ['GET /api/billing/methods/']);
    await vi.waitFor(async () => expect(await skeletonShape()).toEqual(['grid']));
  });

  it("puts a former customer's ended subscriptions under the grid, as the page does", async () => {
    renderBilling(withSubscriptions(ended), ['GET /api/billing/methods/']);
    await vi.waitFor(async () => expect(await skeletonShape()).toEqual(['grid', 'subscription']));
  });
});
