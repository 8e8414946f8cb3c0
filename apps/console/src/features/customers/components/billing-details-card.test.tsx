import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffRole } from '@portal/contract';
import { aCustomer, USER_ID } from '../../../test/fixtures';
import { fakeFetch, renderRoutes, staff } from '../../../test/render';
import CustomerPage from './customer-page';

function renderCustomer(role: StaffRole, answers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({ [`GET /api/console/customers/${USER_ID}`]: { status: 200, body: aCustomer() }, ...answers });
  vi.stubGlobal('fetch', fetch.fn);
  renderRoutes([{ path: '/customers/:userId', element: <CustomerPage /> }], {
    path: `/customers/${USER_ID}`,
    as: staff(role),
  });
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('billing details on the customer page', () => {
  it('shows the company, the address and the tax ID with its check, read-only for support', async () => {
    renderCustomer('support');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(screen.getByText('Acme GmbH')).toBeInTheDocument();
    expect(screen.getByText('Hauptstr. 1')).toBeInTheDocument();
    expect(screen.getByText('10115 Berlin')).toBeInTheDocument();
    expect(screen.getByText('DE123456789')).toBeInTheDocument();
    expect(screen.getByText('Valid (VIES)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit billing details' })).not.toBeInTheDocument();
  });

  it('billing staff change them with a reason: the body is the customer form’s, under details', async () => {
    const fetch = renderCustomer('billing', {
      [`POST /api/console/customers/${USER_ID}/billing-details`]: {
        status: 200,
        body: { ok: true, message: 'The billing details were saved; invoices from now on use them. Tax ID: Valid (VIES).' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit billing details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit billing details' });
    const city = within(dialog).getByRole('textbox', { name: 'City' });
    await userEvent.clear(city);
    await userEvent.type(city, 'Hamburg');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    // No reason yet: the form says so and sends nothing.
    expect(await within(dialog).findByText('Say why you are doing this')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Moved, ticket #9');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    expect(await screen.findByText(/invoices from now on use them/)).toBeInTheDocument();
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe(`/api/console/customers/${USER_ID}/billing-details`);
    expect(JSON.parse(post!.body!)).toEqual({
      reason: 'Moved, ticket #9',
      details: {
        legalName: 'Acme GmbH',
        country: 'DE',
        line1: 'Hauptstr. 1',
        line2: null,
        postalCode: '10115',
        city: 'Hamburg',
        region: null,
        taxId: { type: 'eu_vat', value: 'DE123456789' },
        recipients: ['books@acme.example'],
      },
    });
  });

  it('checks the tax ID as the customer’s form does, before sending', async () => {
    const fetch = renderCustomer('owner');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit billing details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit billing details' });
    const taxId = within(dialog).getByRole('textbox', { name: 'Tax ID' });
    await userEvent.clear(taxId);
    await userEvent.type(taxId, 'FR12345678901');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Fix');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save billing details' }));
    expect(await within(dialog).findByText(/starts with DE/)).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
