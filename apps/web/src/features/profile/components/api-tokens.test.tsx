import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken } from '@portal/contract';
import { ada, renderRoutes, userState } from '../../../test/render';
import { ApiTokens, lastUsedText } from './api-tokens';
import { fakeFetch } from '@portal/ui/test';

const token: ApiToken = {
  id: '5a0f0c52-1111-4a4a-8a8a-000000000001',
  name: 'image pipeline',
  scopes: ['downloads:read', 'licenses:read'],
  hint: 'pat_AbCd',
  createdAt: '2026-01-05T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
};
const SECRET = `pat_${'x'.repeat(43)}`;

function renderTokens(answers: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(answers);
  vi.stubGlobal('fetch', fake.fn);
  renderRoutes(
    [
      {
        path: '/app/profile',
        element: (
          <>
            <ApiTokens />
            <Notifications />
          </>
        ),
      },
    ],
    { path: '/app/profile', preloaded: userState(ada) },
  );
  return fake;
}

describe('lastUsedText', () => {
  it('reads "this minute" within the stored minute, then as a relative time', () => {
    const now = new Date('2026-03-02T10:15:42Z');
    expect(lastUsedText('2026-03-02T10:15:00.000Z', now)).toBe('this minute');
    expect(lastUsedText('2026-03-02T10:12:00.000Z', now)).toMatch(/4 minutes ago/);
  });
});

describe('ApiTokens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.clean();
  });

  it('says what tokens are for when there is none', async () => {
    renderTokens({ 'GET /api/users/tokens': { status: 200, body: { items: [] } } });
    expect(await screen.findByText('No API tokens')).toBeInTheDocument();
  });

  it('lists name, scopes, created, last used and expiry, never a secret', async () => {
    renderTokens({ 'GET /api/users/tokens': { status: 200, body: { items: [token] } } });
    const item = await screen.findByRole('listitem', { name: 'API token image pipeline' });
    expect(within(item).getByText('downloads:read')).toBeInTheDocument();
    expect(within(item).getByText('licenses:read')).toBeInTheDocument();
    expect(within(item).getByText('pat_AbCd…')).toBeInTheDocument();
    expect(item).toHaveTextContent(/Created .*2026 · Last used never · Never expires/);
  });

  it('checks the form with the contract, sends name, scopes and expiry, then shows the secret once', async () => {
    const user = userEvent.setup();
    const fake = renderTokens({
      'GET /api/users/tokens': { status: 200, body: { items: [] } },
      'POST /api/users/tokens': { status: 201, body: { token, secret: SECRET } },
    });
    // The button is there, disabled, while the list loads: a customer presses it once it is enabled.
    const create = await screen.findByRole('button', { name: 'Create token' });
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    const dialog = await screen.findByRole('dialog', { name: 'Create an API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Enter a name for the token')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one scope')).toBeInTheDocument();
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText(/^Name/), 'image pipeline');
    await user.click(within(dialog).getByRole('checkbox', { name: /Download the ISO/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Read licenses/ }));
    await user.click(within(dialog).getByLabelText(/^Expires/));
    await user.click(await screen.findByRole('option', { name: 'Never', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'Copy your new API token' });
    expect(within(shown).getByLabelText('Token “image pipeline”')).toHaveTextContent(SECRET);
    expect(within(shown).getByText('This is the only time you see it')).toBeInTheDocument();
    const post = fake.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(post!.body!)).toEqual({
      name: 'image pipeline',
      scopes: ['downloads:read', 'licenses:read'],
      expiresInDays: null,
    });

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
  });

  it('revokes after a confirmation', async () => {
    const user = userEvent.setup();
    const fake = renderTokens({
      'GET /api/users/tokens': { status: 200, body: { items: [token] } },
      [`DELETE /api/users/tokens/${token.id}`]: { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Revoke image pipeline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this API token?' });
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    expect(await screen.findByText('“image pipeline” no longer works.')).toBeInTheDocument();
    expect(fake.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/users/tokens/${token.id}`]);
  });
});
