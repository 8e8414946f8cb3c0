import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PaymentMethod, type Subscription, formatDate } from '@portal/contract';
import { AppLayout } from '../../../app/layouts/app-layout';
import { aSubscription } from '../../../test/fixtures';
import { ada, LocationProbe, portalConfig, renderRoutes, userState } from '../../../test/render';
import { BillingPage } from './billing-page';
import { fakeFetch } from '@portal/ui/test';

/** A failing payment on the customer's side: the banner of every signed-in page, the card's status, and paying the open invoice. */

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const accessUntil = days(9);
const nextAttemptAt = days(2);
const failing: Subscription = aSubscription({
  stripeId: 'sub_due',
  status: 'past_due',
  quantity: 2,
  currentPeriodStart: days(-5),
  currentPeriodEnd: days(25),
  plan: 'Node license',
  unitAmount: 2500,
  licenseKey: 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2',
  paymentFailing: {
    amountDue: 5000,
    currency: 'usd',
    invoiceNumber: 'LOC-0007',
    failingSince: days(-5),
    accessUntil,
    nextAttemptAt,
  },
});
const paid: Subscription = { ...failing, status: 'active', paymentFailing: null };
const poor: PaymentMethod = { id: 'pm_poor', brand: 'visa', last4: '9995', expMonth: 12, expYear: 2034, isDefault: true };
const good: PaymentMethod = { id: 'pm_good', brand: 'mastercard', last4: '4444', expMonth: 1, expYear: 2035, isDefault: false };

type Answers = Parameters<typeof fakeFetch>[0];

function renderAt(path: string, answers: Answers = {}) {
  const all: Answers = {
    'GET /api/config': { status: 200, body: portalConfig },
    'GET /api/billing/prices': {
      status: 200,
      body: { plan: 'Node license', currency: 'usd', monthUnitAmount: 2500, yearUnitAmount: 25000 },
    },
    'GET /api/billing/methods/': { status: 200, body: { items: [poor, good] } },
    'GET /api/billing/subscriptions/': { status: 200, body: { items: [failing] } },
    'GET /api/billing/subscriptions/sub_due/invoices': { status: 200, body: { items: [] } },
    ...answers,
  };
  const fetch = fakeFetch(all);
  vi.stubGlobal('fetch', fetch.fn);
  const routes = [
    {
      path: '/app',
      element: <AppLayout />,
      children: [
        { path: 'licenses', element: <p>Licenses content</p> },
        { path: 'billing', element: <BillingPage /> },
      ],
    },
    { path: '*', element: <LocationProbe /> },
  ];
  return { ...renderRoutes(routes, { path, preloaded: userState(ada) }), fetch, answers: all };
}

describe('a failing payment', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows a banner on a signed-in page with the amount, the day access ends, the next try and Pay now', async () => {
    const { router } = renderAt('/app/licenses');
    const banner = await screen.findByRole('alert', { name: 'Your payment failed' });
    expect(banner).toHaveTextContent('We could not charge $50.00 for your subscription of 2 nodes.');
    expect(banner).toHaveTextContent(`Your license keeps working until ${formatDate(accessUntil)}`);
    expect(banner).toHaveTextContent(`We will try your card again on ${formatDate(nextAttemptAt)}.`);
    expect(screen.getByText('Licenses content')).toBeInTheDocument();
    await userEvent.click(within(banner).getByRole('link', { name: 'Pay now' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/app/billing?pay=sub_due'));
    expect(await screen.findByRole('dialog', { name: 'Pay the open invoice' })).toBeInTheDocument();
  });

  it('shows no banner while every payment goes through', async () => {
    renderAt('/app/licenses', { 'GET /api/billing/subscriptions/': { status: 200, body: { items: [paid] } } });
    expect(await screen.findByText('Licenses content')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Your payment failed' })).toBeNull());
  });

  it('labels the subscription "Payment failed, retrying" with the next try and the access end', async () => {
    renderAt('/app/billing');
    const card = await screen.findByRole('article', { name: 'Node license' });
    expect(within(card).getByText('Payment failed, retrying')).toBeInTheDocument();
    expect(card).toHaveTextContent(`Next try on ${formatDate(nextAttemptAt)}.`);
    expect(card).toHaveTextContent(`Access until${formatDate(accessUntil)}`);
    expect(within(card).queryByText('Active')).toBeNull();
  });

  it('pays the open invoice with the chosen card; the banner goes and the subscription shows Active', async () => {
    const { fetch, answers } = renderAt('/app/billing?pay=sub_due', {
      'POST /api/billing/subscriptions/sub_due/pay': { status: 200, body: { subscription: paid } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Pay the open invoice' });
    expect(dialog).toHaveTextContent('Amount due: $50.00 (invoice LOC-0007)');
    // Two cards: none is chosen for the customer (the default may be the one that failed).
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay $50.00' }));
    expect(await within(dialog).findByText('Choose a card to pay with.')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(within(dialog).getByRole('radio', { name: /Mastercard ending in 4444/ }));
    answers['GET /api/billing/subscriptions/'] = { status: 200, body: { items: [paid] } };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay $50.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pay the open invoice' })).toBeNull());
    const post = fetch.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/billing/subscriptions/sub_due/pay');
    expect(JSON.parse(post.body!)).toEqual({ paymentMethodId: 'pm_good' });
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Your payment failed' })).toBeNull());
    const card = await screen.findByRole('article', { name: 'Node license' });
    await waitFor(() => expect(within(card).getByText('Active')).toBeInTheDocument());
  });

  it('shows the card’s message when it is declined and stays open', async () => {
    renderAt('/app/billing?pay=sub_due', {
      'POST /api/billing/subscriptions/sub_due/pay': {
        status: 402,
        body: { code: 'CARD_DECLINED', message: 'Your card has insufficient funds.' },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Pay the open invoice' });
    await userEvent.click(within(dialog).getByRole('radio', { name: /Visa ending in 9995/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay $50.00' }));
    expect(await within(dialog).findByText('Your card has insufficient funds.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Pay the open invoice' })).toBeInTheDocument();
  });

  it('offers a new card instead: the add-card dialog opens (a new card pays the invoice at once)', async () => {
    const { store } = renderAt('/app/billing?pay=sub_due');
    const dialog = await screen.findByRole('dialog', { name: 'Pay the open invoice' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay with a new card' }));
    expect(store.getState().billing.addMethodVisible).toBe(true);
  });
});
