import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSubscriptionRow } from '@portal/contract';
import { fakeFetch, renderRoutes } from '../../../test/render';
import SubscriptionsPage from './subscriptions-page';

const row: ConsoleSubscriptionRow = {
  subscriptionId: 'sub_local_1',
  userId: '5b0e5f9c-7d2a-4f61-9c3e-1a2b3c4d5e6f',
  email: 'ada@acme.example',
  status: 'past_due',
  interval: 'year',
  quantity: 4,
  amount: 96000,
  currency: 'usd',
  currentPeriodEnd: '2027-01-01T00:00:00Z',
  cancelAtPeriodEnd: false,
  createdAt: '2026-01-01T00:00:00Z',
  nextAttemptAt: '2026-11-28T12:00:00Z',
  accessUntil: '2026-12-10T12:00:00Z',
};
const page = (items: ConsoleSubscriptionRow[], total = items.length) => ({
  status: 200,
  body: { items, page: 1, size: 20, total },
});

afterEach(() => vi.unstubAllGlobals());

function renderList(path: string, answers: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderRoutes([{ path: '/subscriptions', element: <SubscriptionsPage /> }], { path });
  return { ...view, fetch };
}

describe('SubscriptionsPage', () => {
  it('lists rows with their customer, status, amount and a CSV of the same filters', async () => {
    renderList('/subscriptions?status=past_due', { 'GET /api/console/subscriptions': page([row], 41) });
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    expect(await within(table).findByRole('link', { name: 'ada@acme.example' })).toHaveAttribute(
      'href',
      `/customers/${row.userId}`,
    );
    expect(within(table).getByText('Payment failing')).toBeInTheDocument();
    expect(within(table).getByText('Nov 28, 2026')).toBeInTheDocument();
    expect(within(table).getByText('Access until Dec 10, 2026')).toBeInTheDocument();
    expect(within(table).getByText('$960.00 yearly')).toBeInTheDocument();
    expect(screen.getByText(/of 41 subscriptions/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/console/subscriptions?status=past_due&format=csv',
    );
  });

  it('filters by "Payment failing" and shows a dash for rows whose payment is not failing', async () => {
    const fine: ConsoleSubscriptionRow = {
      ...row,
      subscriptionId: 'sub_local_2',
      email: 'bob@acme.example',
      status: 'active',
      nextAttemptAt: null,
      accessUntil: null,
    };
    const { fetch } = renderList('/subscriptions', { 'GET /api/console/subscriptions': page([fine]) });
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    await within(table).findByRole('link', { name: 'bob@acme.example' });
    expect(within(table).getByLabelText('None')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Status: Payment failing' }));
    await waitFor(() => expect(fetch.calls.at(-1)?.path).toContain('status=past_due'));
  });

  it('sorts by a column header, newest first then the other way', async () => {
    const { fetch } = renderList('/subscriptions', { 'GET /api/console/subscriptions': page([row]) });
    await screen.findByRole('link', { name: 'ada@acme.example' });
    await userEvent.click(screen.getByRole('button', { name: 'Amount' }));
    await waitFor(() => expect(fetch.calls.at(-1)?.path).toContain('sort=amount&order=desc'));
    expect(screen.getByRole('columnheader', { name: 'Amount' })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: 'Amount' }));
    await waitFor(() => expect(fetch.calls.at(-1)?.path).toContain('sort=amount&order=asc'));
  });

  it('says when nothing matches the filters', async () => {
    renderList('/subscriptions?interval=year', { 'GET /api/console/subscriptions': page([]) });
    expect(await screen.findByText('No subscriptions found')).toBeInTheDocument();
  });

  it('shows the error with Retry when the list cannot be read', async () => {
    renderList('/subscriptions', {
      'GET /api/console/subscriptions': { status: 500, body: { message: 'Busy', code: 'INTERNAL' } },
    });
    expect(await screen.findByText('Busy')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
