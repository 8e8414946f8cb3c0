import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleCustomer, StaffRole } from '@portal/contract';
import { aCustomer, LICENSE_KEY, USER_ID } from '../../../test/fixtures';
import { fakeFetch, LocationProbe, renderRoutes, staff } from '../../../test/render';
import { customerFigures } from '../customer-figures';
import CustomerPage from './customer-page';

const PAGE = `GET /api/console/customers/${USER_ID}`;

/** The fixture's customer with both nodes its license counts listed, the second one stale. */
function withBothNodes(): ConsoleCustomer {
  const c = aCustomer();
  const stale = {
    id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
    licenseKey: LICENSE_KEY,
    fingerprint: 'fp-2b4d6f',
    hostname: 'pve-02',
    activatedAt: '2026-01-20T09:00:00Z',
    lastSeenAt: '2026-01-21T09:00:00Z',
  };
  return { ...c, nodes: [...c.nodes, stale] };
}

function renderCustomer(role: StaffRole, answers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({ [PAGE]: { status: 200, body: withBothNodes() }, ...answers });
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderRoutes(
    [
      { path: '/customers/:userId', element: <CustomerPage /> },
      { path: '/customers', element: <LocationProbe /> },
    ],
    { path: `/customers/${USER_ID}`, as: staff(role) },
  );
  return { ...view, fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('CustomerPage', () => {
  it('shows the profile, subscription with its invoice, license usage, nodes and cards', async () => {
    renderCustomer('support');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('ada@acme.example · Acme')).toBeInTheDocument();
    const subscriptions = screen.getByRole('region', { name: 'Subscriptions' });
    expect(within(subscriptions).getByText('INV-0002')).toBeInTheDocument();
    expect(within(subscriptions).getByText(/3 nodes · \$75\.00 monthly/)).toBeInTheDocument();
    const licenses = screen.getByRole('region', { name: 'Licenses' });
    expect(within(licenses).getByRole('progressbar', { name: 'Nodes in use' })).toHaveAttribute(
      'aria-valuetext',
      '2 of 3 nodes in use',
    );
    const nodes = screen.getByRole('region', { name: 'Nodes' });
    expect(within(nodes).getByText('pve-01')).toBeInTheDocument();
    expect(within(nodes).getByText('Healthy')).toBeInTheDocument();
    expect(within(nodes).getByText('pve-02')).toBeInTheDocument();
    // Every node is listed: nothing says some are left out.
    expect(within(nodes).queryByText(/^Showing/)).toBeNull();
    expect(screen.getByText('Visa •••• 4242')).toBeInTheDocument();
  });

  it('says when only the newest of a large customer’s nodes are listed, of how many, and where the rest are counted', async () => {
    const c = withBothNodes();
    // A reseller: 110,000 nodes on the license; the server lists its newest (here the two).
    const reseller = { ...c, licenses: c.licenses.map((l) => ({ ...l, maxNodes: 120_000, activeNodes: 110_000 })) };
    renderCustomer('support', { [PAGE]: { status: 200, body: reseller } });

    const nodes = await screen.findByRole('region', { name: 'Newest nodes' });
    expect(screen.queryByRole('region', { name: 'Nodes' })).toBeNull();
    expect(within(nodes).getByText(/^The 2 most recently activated of 110,000 nodes;/)).toBeInTheDocument();
    expect(within(nodes).getAllByRole('row')).toHaveLength(3);
    expect(within(nodes).getByText(/^Showing 2 of 110,000 nodes\./)).toBeInTheDocument();
    expect(within(nodes).getByRole('link', { name: 'Each license’s nodes are counted under Licenses' })).toHaveAttribute(
      'href',
      '#licenses',
    );
    // The summary counts every node, not the ones listed.
    expect(customerFigures(reseller).nodes).toBe(110_000);
    expect(customerFigures(withBothNodes()).nodes).toBe(2);
  });

  it('names each cell of the licenses and nodes by its column and marks the menu, for the cards a phone shows', async () => {
    renderCustomer('support');
    const licenses = await screen.findByRole('region', { name: 'Licenses' });
    const [, row] = within(licenses).getAllByRole('row');
    const cells = within(row!).getAllByRole('cell');
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual([
      'License key',
      'Status',
      'Nodes',
      'Valid until',
      'Source',
      null,
    ]);
    expect(cells.at(-1)).toHaveAttribute('data-menu');
    expect(within(cells.at(-1)!).getByRole('button', { name: `Actions for license ${LICENSE_KEY}` })).toBeInTheDocument();
    const nodes = screen.getByRole('region', { name: 'Nodes' });
    const [, node] = within(nodes).getAllByRole('row');
    expect(within(node!).getByText('pve-01').closest('td')).toHaveAttribute('data-label', 'Hostname');
  });

  it("marks the nodes of a suspended license by their license's state, not as healthy", async () => {
    const customer = withBothNodes();
    renderCustomer('support', {
      [PAGE]: {
        status: 200,
        body: { ...customer, licenses: customer.licenses.map((l) => ({ ...l, status: 'suspended' as const })) },
      },
    });
    const nodes = await screen.findByRole('region', { name: 'Nodes' });
    expect(within(nodes).getAllByText('License suspended')).toHaveLength(2);
    expect(within(nodes).queryByText('Healthy')).toBeNull();
  });

  it('offers each role only what it may do', async () => {
    renderCustomer('support');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    // Support: license and node actions, sign-in link; no subscription, refund or deletion.
    expect(screen.getByRole('button', { name: `Actions for license ${LICENSE_KEY}` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send sign-in link' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for subscription sub_local_1' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for invoice INV-0002' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(await screen.findByRole('menuitem', { name: 'End all sessions…' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Delete customer/ })).not.toBeInTheDocument();
  });

  it('billing staff see subscription and refund actions but no license actions', async () => {
    renderCustomer('billing');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(screen.getByRole('button', { name: 'Actions for subscription sub_local_1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions for invoice INV-0002' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `Actions for license ${LICENSE_KEY}` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send sign-in link' })).not.toBeInTheDocument();
  });

  it('suspends a license only with a reason, then reads the customer again', async () => {
    const { fetch } = renderCustomer('support', {
      [`POST /api/console/licenses/${LICENSE_KEY}/suspend`]: {
        status: 200,
        body: { ok: true, message: 'The license is suspended.' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `Actions for license ${LICENSE_KEY}` }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Suspend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend license' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend license' }));
    expect(await within(dialog).findByText('Say why you are doing this')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Chargeback opened, ticket 4821');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend license' }));

    expect(await screen.findByText('The license is suspended.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: `/api/console/licenses/${LICENSE_KEY}/suspend`,
      body: JSON.stringify({ reason: 'Chargeback opened, ticket 4821' }),
    });
    await waitFor(() => expect(fetch.calls.filter((c) => c.path === `/api/console/customers/${USER_ID}`)).toHaveLength(2));
  });

  it('suspends with a message to the customer, kept apart from the internal reason', async () => {
    const { fetch } = renderCustomer('support', {
      [`POST /api/console/licenses/${LICENSE_KEY}/suspend`]: {
        status: 200,
        body: { ok: true, message: 'The license is suspended.' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `Actions for license ${LICENSE_KEY}` }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Suspend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend license' });
    expect(within(dialog).getByText('Shown to the customer')).toBeInTheDocument();
    const message = within(dialog).getByRole('textbox', { name: 'Message to the customer' });
    expect(message).not.toBeRequired();
    expect(message).toHaveAccessibleDescription(/The customer sees it in the portal/);
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(/the customer does not see it/);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Chargeback opened, ticket 4821');
    // An invisible character is refused in the dialog, as the server refuses it: nothing is sent.
    await userEvent.type(message, 'Pay\u200b now');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend license' }));
    expect(await within(dialog).findByText(/Remove the invisible characters/)).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toEqual([]);

    await userEvent.clear(message);
    await userEvent.type(message, 'Your bank reversed the last payment. Write to billing@vendor.example.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend license' }));
    expect(await screen.findByText('The license is suspended.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: `/api/console/licenses/${LICENSE_KEY}/suspend`,
      body: JSON.stringify({
        reason: 'Chargeback opened, ticket 4821',
        customerMessage: 'Your bank reversed the last payment. Write to billing@vendor.example.',
      }),
    });
  });

  it('shows on a suspended license what the customer was told', async () => {
    const customer = aCustomer();
    const told = 'Your bank reversed the last payment. Write to billing@vendor.example.';
    renderCustomer('support', {
      [PAGE]: {
        status: 200,
        body: {
          ...customer,
          licenses: customer.licenses.map((l) => ({ ...l, status: 'suspended' as const, suspensionMessage: told })),
        },
      },
    });
    const licenses = await screen.findByRole('region', { name: 'Licenses' });
    const note = await within(licenses).findByText(told, { exact: false });
    expect(note).toHaveTextContent(`Message to the customer: ${told}`);
    expect(note).toHaveAttribute('title', told);
  });

  it('extends a license by the days given', async () => {
    const { fetch } = renderCustomer('support', {
      [`POST /api/console/licenses/${LICENSE_KEY}/extend`]: { status: 200, body: { ok: true, message: 'Extended by 14 days.' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: `Actions for license ${LICENSE_KEY}` }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Extend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend license' });
    const days = within(dialog).getByRole('textbox', { name: /Days/ });
    await userEvent.clear(days);
    await userEvent.type(days, '14');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Grace while the card is replaced');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend license' }));

    await screen.findByText('Extended by 14 days.');
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toBe(
      JSON.stringify({ reason: 'Grace while the card is replaced', days: 14 }),
    );
  });

  it('deletes a customer only once their address is typed, then goes back to the list', async () => {
    const { fetch } = renderCustomer('owner', {
      [`POST /api/console/customers/${USER_ID}/delete`]: { status: 200, body: { ok: true, message: 'Deleted.' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'More actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete customer…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete customer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'GDPR request, ticket 99');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Confirmation/ }), 'someone@else.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete customer' }));
    expect(await within(dialog).findByText('Type the customer’s e-mail address exactly')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toEqual([]);

    const confirm = within(dialog).getByRole('textbox', { name: /Confirmation/ });
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'ada@acme.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete customer' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/customers'));
  });

  it('shows the server’s message in the dialog when an action fails', async () => {
    renderCustomer('support', {
      [`POST /api/console/licenses/${LICENSE_KEY}/suspend`]: {
        status: 409,
        body: { message: 'This license is already suspended', code: 'CONFLICT' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `Actions for license ${LICENSE_KEY}` }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Suspend…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend license' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Abuse report');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend license' }));
    expect(await within(dialog).findByText('This license is already suspended')).toBeInTheDocument();
  });

  it('says when the customer does not exist', async () => {
    renderCustomer('support', { [PAGE]: { status: 404, body: { message: 'This customer does not exist', code: 'NOT_FOUND' } } });
    expect(await screen.findByRole('heading', { name: 'Customer not found' })).toBeInTheDocument();
    expect(screen.getByText('This customer does not exist')).toBeInTheDocument();
  });
});
