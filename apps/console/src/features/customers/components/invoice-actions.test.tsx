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

describe('invoice actions', () => {
  it('credits part of an invoice to the balance, in cents, with a reason', async () => {
    const fetch = renderCustomer('billing', {
      'POST /api/console/invoices/in_2/credit': {
        status: 200,
        body: { ok: true, message: "Credited $12.50 of invoice INV-0002 to the customer's balance" },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for invoice INV-0002' }));
    expect(await screen.findByRole('menuitem', { name: 'Refund…' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Credit to balance…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit invoice' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount to credit \(USD\)/ });
    // The currency's sign beside the amount, as people type money.
    expect(within(dialog).getByText('$')).toBeInTheDocument();
    // The example reason is one for this action.
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAttribute(
      'placeholder',
      'e.g. Ticket #4832: outage on the 3rd, one day credited',
    );
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Outage on the 3rd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Credit' }));

    expect(await screen.findByText("Credited $12.50 of invoice INV-0002 to the customer's balance")).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/console/invoices/in_2/credit',
      body: JSON.stringify({ reason: 'Outage on the 3rd', amount: 1250 }),
    });
  });

  it('support staff are offered neither refunds nor credits', async () => {
    renderCustomer('support');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(screen.queryByRole('button', { name: 'Actions for invoice INV-0002' })).not.toBeInTheDocument();
  });
});
