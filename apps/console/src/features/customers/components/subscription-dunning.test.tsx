import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleCustomer, StaffRole } from '@portal/contract';
import { aCustomer, USER_ID } from '../../../test/fixtures';
import { fakeFetch, renderRoutes, staff } from '../../../test/render';
import CustomerPage from './customer-page';

const PAGE = `GET /api/console/customers/${USER_ID}`;
const RETRY = 'POST /api/console/subscriptions/sub_local_1/retry-payment';

/** Ada's subscription, its renewal declined: past due, in grace, its invoice of $75.00 open. */
function failing(patch: Partial<ConsoleCustomer['subscriptions'][number]> = {}): ConsoleCustomer {
  const c = aCustomer();
  const sub = c.subscriptions[0]!;
  c.subscriptions = [
    {
      ...sub,
      status: 'past_due',
      dunning: {
        failingSince: '2026-11-01T00:00:00Z',
        accessUntil: '2026-11-15T00:00:00Z',
        nextAttemptAt: '2026-11-04T00:00:00Z',
        amountDue: 7500,
        currency: 'usd',
      },
      ...patch,
    },
  ];
  return c;
}

function renderCustomer(role: StaffRole, customer: ConsoleCustomer, answers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({ [PAGE]: { status: 200, body: customer }, ...answers });
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([{ path: '/customers/:userId', element: <CustomerPage /> }], { path: `/customers/${USER_ID}`, as: staff(role) });
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('a failing payment on the customer page', () => {
  it('shows since when, until when access lasts, the next retry and what is due', async () => {
    renderCustomer('support', failing());
    const subscriptions = await screen.findByRole('region', { name: 'Subscriptions' });
    expect(within(subscriptions).getByText('Payment failing')).toBeInTheDocument();
    // Its period is not renewing: it is the unpaid one.
    expect(within(subscriptions).getByText(/· Unpaid period ends Dec 1, 2026$/)).toBeInTheDocument();
    const facts = within(subscriptions).getByRole('region', { name: 'Failing payment' });
    expect(facts).toHaveTextContent('Failing sinceNov 1, 2026');
    expect(facts).toHaveTextContent('Access untilNov 15, 2026');
    expect(facts).toHaveTextContent('Next retryNov 4, 2026');
    expect(facts).toHaveTextContent('Amount due$75.00');
    // Support see it, but retrying a payment is billing's (no subscription actions at all).
    expect(screen.queryByRole('button', { name: 'Actions for subscription sub_local_1' })).not.toBeInTheDocument();
  });

  it('says who retries when the engine has no retry left, or Stripe holds the subscription', async () => {
    renderCustomer(
      'support',
      failing({ provider: 'stripe', dunning: { ...failing().subscriptions[0]!.dunning!, nextAttemptAt: null } }),
    );
    expect(await screen.findByText('Scheduled by Stripe')).toBeInTheDocument();
  });

  it('billing staff retry the payment now with a reason', async () => {
    const fetch = renderCustomer('billing', failing(), {
      [RETRY]: { status: 200, body: { ok: true, message: 'Paid $75.00: the subscription is active again until 2026-12-01' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for subscription sub_local_1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Retry payment now…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry payment now' });
    expect(dialog).toHaveTextContent('the next scheduled retry stands');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Card replaced, ticket 7002');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry payment' }));
    expect(await screen.findByText('Paid $75.00: the subscription is active again until 2026-12-01')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/console/subscriptions/sub_local_1/retry-payment',
      body: JSON.stringify({ reason: 'Card replaced, ticket 7002' }),
    });
  });

  it('shows a declined retry in the dialog', async () => {
    renderCustomer('owner', failing(), {
      [RETRY]: { status: 402, body: { code: 'CARD_DECLINED', message: 'The card on file was declined again' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for subscription sub_local_1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Retry payment now…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry payment now' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Customer asked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry payment' }));
    expect(await within(dialog).findByText('The card on file was declined again')).toBeInTheDocument();
  });

  it('offers no retry when the payment is not failing', async () => {
    renderCustomer('billing', aCustomer());
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for subscription sub_local_1' }));
    await screen.findByRole('menuitem', { name: 'Cancel now…' });
    expect(screen.queryByRole('menuitem', { name: 'Retry payment now…' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Failing payment' })).not.toBeInTheDocument();
  });
});
