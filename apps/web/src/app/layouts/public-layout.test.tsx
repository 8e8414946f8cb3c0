import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, LocationProbe, renderRoutes, userState, portalConfig } from '../../test/render';
import { PublicLayout } from './public-layout';
import { fakeFetch } from '@portal/ui/test';

const routes = [
  { element: <PublicLayout />, children: [{ path: '/login', element: <p>Login form</p> }] },
  { path: '*', element: <LocationProbe /> },
];

describe('PublicLayout', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/config': { status: 200, body: portalConfig },
      }).fn,
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renders nothing while the session check runs', () => {
    const { container } = renderRoutes(routes, {
      path: '/login',
      preloaded: { user: { authenticated: false, checkingAuth: true, profile: null } },
    });
    // Only Mantine's theme <style> tags: no content at all.
    expect(container.querySelector(':scope > :not(style)')).toBeNull();
  });

  it('shows the page with the logo to a guest once the settings are here', async () => {
    const { container } = renderRoutes(routes, { path: '/login', preloaded: userState(null) });
    // Not before: the brand name and the documentation link would move the centred column.
    expect(container.querySelector(':scope > :not(style)')).toBeNull();
    expect(await screen.findByText('Login form')).toBeInTheDocument();
    expect(screen.getByText('Acme Cloud')).toBeInTheDocument();
  });

  it('sends a signed-in visitor to the dashboard when no `to` is given', () => {
    renderRoutes(routes, { path: '/login', preloaded: userState(ada) });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/app\/dashboard$/);
  });

  it('sends a signed-in visitor to `to` when it is a path on this site', async () => {
    renderRoutes(routes, { path: '/login?to=%2Fapp%2Fbilling%3Ftab%3Dinvoices', preloaded: userState(ada) });
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/app\/billing\?tab=invoices$/);
  });

  it.each(['//evil.example', 'https://evil.example/app', '/\\evil.example', 'javascript:alert(1)'])(
    'ignores the unsafe target %s',
    async (to) => {
      renderRoutes(routes, { path: `/login?to=${encodeURIComponent(to)}`, preloaded: userState(ada) });
      expect(await screen.findByTestId('location')).toHaveTextContent(/^\/app\/dashboard$/);
    },
  );
});
