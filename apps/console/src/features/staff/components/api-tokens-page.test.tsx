import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffToken } from '@portal/contract';
import { fakeFetch, LocationProbe, renderRoutes, staff } from '../../../test/render';
import ApiTokensPage from './api-tokens-page';

const token: StaffToken = {
  id: '6b0e5f9c-7d2a-4f61-9c3e-1a2b3c4d5e6f',
  name: 'CRM sync',
  role: 'support',
  hint: 'stk_AbCd',
  createdBy: 'owner@vendor.example',
  createdAt: '2026-11-01T00:00:00Z',
  expiresAt: '2099-01-01T00:00:00Z',
  lastUsedAt: null,
};
const SECRET = `stk_${'x'.repeat(43)}`;

afterEach(() => vi.unstubAllGlobals());

function renderPage(answers: Parameters<typeof fakeFetch>[0], as = staff('owner')) {
  const fetch = fakeFetch(answers);
  vi.stubGlobal('fetch', fetch.fn);
  const view = renderRoutes(
    [
      { path: '/api-tokens', element: <ApiTokensPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    { path: '/api-tokens', as },
  );
  return { ...view, fetch };
}

describe('ApiTokensPage', () => {
  it('lists the tokens with role, hint and last use, never a secret', async () => {
    renderPage({ 'GET /api/console/tokens': { status: 200, body: { items: [token] } } });
    const table = await screen.findByRole('table', { name: 'API tokens' });
    expect(within(table).getByText('CRM sync')).toBeInTheDocument();
    expect(within(table).getByText('Support')).toBeInTheDocument();
    expect(within(table).getByText('stk_AbCd…')).toBeInTheDocument();
    expect(within(table).getByText('Never')).toBeInTheDocument();
  });

  it('says what to do when there are none', async () => {
    renderPage({ 'GET /api/console/tokens': { status: 200, body: { items: [] } } });
    expect(await screen.findByText('No API tokens')).toBeInTheDocument();
  });

  it('creates a token with role, expiry and reason, and shows its secret once', async () => {
    const user = userEvent.setup();
    const { fetch } = renderPage({
      'GET /api/console/tokens': { status: 200, body: { items: [] } },
      'POST /api/console/tokens': { status: 201, body: { token: { ...token, role: 'billing' }, secret: SECRET } },
    });
    await user.click(await screen.findByRole('button', { name: 'Create API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CRM sync');
    await user.click(within(dialog).getByRole('radio', { name: /Billing/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    // No reason yet: nothing is sent.
    expect(await within(dialog).findByText('Say why you are doing this')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Nightly sync');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('dialog', { name: 'Copy the new API token' });
    expect(within(shown).getByRole('textbox', { name: /CRM sync/ })).toHaveTextContent(SECRET);
    const post = fetch.calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(post.body!)).toEqual({ name: 'CRM sync', role: 'billing', expiresInDays: 90, reason: 'Nightly sync' });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
  });

  it('revokes after a confirmation with a reason', async () => {
    const user = userEvent.setup();
    const { fetch } = renderPage({
      'GET /api/console/tokens': { status: 200, body: { items: [token] } },
      [`DELETE /api/console/tokens/${token.id}`]: { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke CRM sync' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Script retired');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(true));
    const call = fetch.calls.find((c) => c.method === 'DELETE')!;
    expect(JSON.parse(call.body!)).toEqual({ reason: 'Script retired' });
  });

  it('sends support and billing back to the overview', async () => {
    renderPage({}, staff('support'));
    expect(await screen.findByTestId('location')).toHaveTextContent('/overview');
  });
});
