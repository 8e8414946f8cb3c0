import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, userState, portalConfig } from '../../../test/render';
import { SignUpPage } from './signup-page';
import { fakeFetch } from '@portal/ui/test';

describe('SignUpPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates the account through an e-mailed link and links back to sign-in', async () => {
    const fetch = fakeFetch({
      'GET /api/config': { status: 200, body: portalConfig },
      'POST /api/auth/link': { status: 202, body: { sent: true } },
    });
    vi.stubGlobal('fetch', fetch.fn);
    renderRoutes([{ path: '/signup', element: <SignUpPage /> }], {
      path: '/signup?to=%2Fapp%2Fbilling',
      preloaded: userState(null),
    });
    expect(await screen.findByRole('heading', { name: 'Create your Acme Cloud account' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?to=%2Fapp%2Fbilling'),
    );
    await userEvent.type(screen.getByLabelText('E-mail address'), 'grace@navy.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send sign-up link' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(JSON.parse(fetch.calls.find((c) => c.method === 'POST')!.body!)).toEqual({
      email: 'grace@navy.example',
      to: '/app/billing',
    });
  });
});
