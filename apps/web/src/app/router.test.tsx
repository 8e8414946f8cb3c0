import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, fakeFetch, renderRoutes, userState } from '../test/render';
import { routes } from './router';

const config = {
  brandName: 'Acme Cloud',
  docsUrl: 'https://docs.acme.example',
  googleEnabled: false,
  billingProvider: 'local',
  stripePublishableKey: null,
};

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
    const { router } = renderRoutes(routes, { path, preloaded: userState(null) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Send sign-in link' })).toBeInTheDocument();
  });

  it('sends a guest from a signed-in page to /login?to=<that page>', async () => {
    const { router } = renderRoutes(routes, { path: '/app/billing', preloaded: userState(null) });
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/login?to=%2Fapp%2Fbilling'));
  });

  it('lands a signed-in user arriving at / on the dashboard, greeted by name, Home highlighted', async () => {
    const { router } = renderRoutes(routes, { path: '/', preloaded: userState(ada) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
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
    renderRoutes(routes, { path, preloaded: userState(ada) });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: title })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps a user who is not onboarded on /onboarding', async () => {
    const { router } = renderRoutes(routes, { path: '/app/licenses', preloaded: userState({ ...ada, onboarded: false }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
    expect(await screen.findByRole('heading', { name: 'Welcome — tell us who you are' })).toBeInTheDocument();
  });

  it('sends an onboarded user away from /onboarding', async () => {
    const { router } = renderRoutes(routes, { path: '/onboarding', preloaded: userState(ada) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
  });

  it('sends a guest from /onboarding to sign in first', async () => {
    const { router } = renderRoutes(routes, { path: '/onboarding', preloaded: userState(null) });
    await waitFor(() => expect(router.state.location.search).toBe('?to=%2Fonboarding'));
  });

  it('records a page view per route', async () => {
    renderRoutes(routes, { path: '/login', preloaded: userState(null) });
    await waitFor(() =>
      expect(window.__analytics).toContainEqual(
        expect.objectContaining({ type: 'capture', event: '$pageview', properties: expect.objectContaining({ path: '/login' }) }),
      ),
    );
  });
});
