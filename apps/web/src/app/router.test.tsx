import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientState } from '../lib/state/hooks';
import { ada, Providers, userState, portalConfig } from '../test/render';
import { AppRoutes, preloadRoutes } from './router';
import { makeStore } from './store';
import { fakeFetch } from '@portal/ui/test';

/** The app's routes as main.tsx renders them, at `path`; `location()` is where the router is now. */
async function renderApp(path: string, preloaded: Partial<ClientState>) {
  await preloadRoutes(path);
  let current: Location | undefined;
  function Probe() {
    current = useLocation();
    return null;
  }
  render(
    <Providers store={makeStore(preloaded)}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Probe />
      </MemoryRouter>
    </Providers>,
  );
  return { location: () => current! };
}

const config = portalConfig;

describe('routes', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 200, body: config } }).fn);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it.each(['/', '/nope', '/app/access-control', '/login/extra'])('sends a guest from %s to /login', async (path) => {
    const { location } = await renderApp(path, userState(null));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Send sign-in link' })).toBeInTheDocument();
  });

  it('sends a guest from /app/access-control to sign in first, back to that page', async () => {
    const { location } = await renderApp('/app/access-control', userState(null));
    await waitFor(() => expect(location().pathname + location().search).toBe('/login?to=%2Fapp%2Faccess-control'));
  });

  it("shows a signed-in user /app/access-control in the shell as 'Coming soon'", async () => {
    const { location } = await renderApp('/app/access-control', userState(ada));
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Control' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Side menu' })).toBeInTheDocument();
    expect(screen.getAllByText('Coming soon').length).toBeGreaterThan(1);
    expect(location().pathname).toBe('/app/access-control');
  });

  it('sends a guest from a signed-in page to /login?to=<that page>', async () => {
    const { location } = await renderApp('/app/billing', userState(null));
    await waitFor(() => expect(location().pathname + location().search).toBe('/login?to=%2Fapp%2Fbilling'));
  });

  it('lands a signed-in user arriving at / on the dashboard, greeted by name, Home highlighted', async () => {
    const { location } = await renderApp('/', userState(ada));
    // The dashboard's code loads only after the redirect: hang guards, for a machine under load.
    await waitFor(() => expect(location().pathname).toBe('/app/dashboard'));
    expect(await screen.findByRole('heading', { level: 1, name: /, Ada$/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  });

  it.each([
    ['/app/licenses', 'Licenses'],
    ['/app/support', 'Support'],
    ['/app/download-iso', 'Download ISO'],
    ['/app/billing', 'Billing'],
    ['/app/profile', 'Profile'],
  ])('renders %s with its title, an empty state and its menu entry highlighted', async (path, title) => {
    await renderApp(path, userState(ada));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: title })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps a user who is not onboarded on /onboarding', async () => {
    const { location } = await renderApp('/app/licenses', userState({ ...ada, onboarded: false }));
    await waitFor(() => expect(location().pathname).toBe('/onboarding'));
    expect(await screen.findByRole('heading', { name: 'Welcome — tell us who you are' })).toBeInTheDocument();
  });

  it('sends an onboarded user away from /onboarding', async () => {
    const { location } = await renderApp('/onboarding', userState(ada));
    await waitFor(() => expect(location().pathname).toBe('/app/dashboard'));
  });

  it('sends a guest from /onboarding to sign in first', async () => {
    const { location } = await renderApp('/onboarding', userState(null));
    await waitFor(() => expect(location().search).toBe('?to=%2Fonboarding'));
  });

  it('records a page view per route', async () => {
    await renderApp('/login', userState(null));
    await waitFor(() =>
      expect(window.__analytics).toContainEqual(
        expect.objectContaining({ type: 'capture', event: '$pageview', properties: expect.objectContaining({ path: '/login' }) }),
      ),
    );
  });
});
