import { rem } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleCustomerRow } from '@portal/contract';
import CustomersPage from './customers-page';
import { fakeFetch, renderRoutes } from '../../../test/render';

const EMAIL = 'ada-lovelace-countess-of-lovelace-xxxxxx@analytical-engines.example';
const COMPANY = 'Analytical Engines and Difference Machines International Ltd.';
const row: ConsoleCustomerRow = {
  id: '5b0e5f9c-7d2a-4f61-9c3e-1a2b3c4d5e6f',
  email: EMAIL,
  name: 'Ada Lovelace',
  company: COMPANY,
  activeSubscriptions: 2,
  licenses: 2,
  createdAt: '2026-01-01T00:00:00Z',
};

afterEach(() => vi.unstubAllGlobals());

async function renderCustomers() {
  const fetch = fakeFetch({ 'GET /api/console/customers': { status: 200, body: { items: [row], page: 1, size: 20, total: 1 } } });
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([{ path: '/customers', element: <CustomersPage /> }], { path: '/customers' });
  const table = await screen.findByRole('table', { name: 'Customers' });
  await within(table).findByRole('link', { name: 'Ada Lovelace' });
  return table;
}

describe('CustomersPage table', () => {
  it('keeps its columns to the page: fixed widths for the short ones, the long values cut with their whole text on hover', async () => {
    const table = await renderCustomers();
    expect(table).toHaveClass(/fixed/);
    expect(within(table).getByText(EMAIL).closest('[title]')).toHaveAttribute('title', EMAIL);
    expect(within(table).getByText(COMPANY).closest('[title]')).toHaveAttribute('title', COMPANY);
    expect(within(table).getByText(COMPANY).closest('[title]')).toHaveClass(/truncate/);
    // The status-like columns keep a width of their own, whatever the e-mail's length.
    expect(within(table).getByRole('columnheader', { name: 'Signed up' }).style.width).toBe(rem(140));
    expect(within(table).getByRole('columnheader', { name: 'Licenses' }).style.width).toBe(rem(100));
  });

  it('names each cell by its column, for the cards a phone shows instead of the table', async () => {
    const table = await renderCustomers();
    expect(table).toHaveClass(/cards/);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual([
      'Customer',
      'E-mail',
      'Company',
      'Active subscriptions',
      'Licenses',
      'Signed up',
    ]);
  });
});
