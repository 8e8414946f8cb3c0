import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, LocationProbe, renderRoutes, userState, portalConfig } from '../../test/render';
import { AppLayout } from './app-layout';
import { fakeFetch } from '@portal/ui/test';

const config = portalConfig;

const routes = [
  {
    path: '/app',
    element: <AppLayout />,
    children: [
      { path: 'licenses', element: <p>Licenses content</p> },
      { path: 'support', element: <p>Support content</p> },
    ],
  },
  { path: '/login', element: <LocationProbe /> },
  { path: '/onboarding', element: <LocationProbe /> },
];

describe('AppLayout', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 200, body: config } }).fn);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('renders nothing while the session check runs', () => {
    const { container } = renderRoutes(routes, {
      path: '/app/licenses',
      preloaded: { user: { authenticated: false, checkingAuth: true, profile: null } },
    });
    // Only Mantine's theme <style> tags: no content at all.
    expect(container.querySelector(':scope > :not(style)')).toBeNull();
  });

  it('sends a visitor without a session to /login?to=<the page and its query>', () => {
    renderRoutes(routes, { path: '/app/licenses?page=2', preloaded: userState(null) });
    expect(screen.getByTestId('location')).toHaveTextContent('/login?to=%2Fapp%2Flicenses%3Fpage%3D2');
  });

  it('sends a user who is not onboarded to /onboarding', () => {
    renderRoutes(routes, { path: '/app/licenses', preloaded: userState({ ...ada, onboarded: false }) });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/onboarding$/);
  });

  it('shows the shell and the page to an onboarded user', async () => {
    renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
    expect(await screen.findByText('Licenses content')).toBeInTheDocument();
    // One navigation landmark, labelled; one main, the skip link's target.
    expect(screen.getAllByRole('navigation')).toHaveLength(1);
    expect(screen.getByRole('navigation', { name: 'Side menu' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(await screen.findByRole('link', { name: 'Documentation' })).toHaveAttribute('target', '_blank');
  });

  it('shows the brand name in the header at once: the shell waits for the configuration, with no placeholder', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', () => pending);
    const { container } = renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
    // The session is known, the brand not yet: nothing is drawn, so no placeholder flashes.
    expect(container.querySelector(':scope > :not(style)')).toBeNull();
    answer(new Response(JSON.stringify(config), { status: 200, headers: { 'content-type': 'application/json' } }));
    const header = await screen.findByRole('banner');
    expect(within(header).getByText('Acme Cloud')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Acme Cloud home' })).toBeInTheDocument();
    expect(header.querySelector('.mantine-Skeleton-root')).toBeNull();
    expect(screen.getByText('Licenses content')).toBeInTheDocument();
  });

  it('names the portal itself in the header when the configuration cannot be read', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 503, body: { message: 'Down' } } }).fn);
    renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
    const header = await screen.findByRole('banner');
    expect(within(header).getByText('Customer portal')).toBeInTheDocument();
    expect(header.querySelector('.mantine-Skeleton-root')).toBeNull();
  });

  it("offers 'Skip to content' first, which moves focus to the page", async () => {
    renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
    await screen.findByRole('link', { name: 'Documentation' });
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  describe('on a narrow screen (992 px or less)', () => {
    beforeEach(() => {
      vi.stubGlobal(
        'matchMedia',
        (query: string) =>
          ({
            matches: query.includes('max-width: 992px'),
            media: query,
            addEventListener: () => {},
            removeEventListener: () => {},
            addListener: () => {},
            removeListener: () => {},
            onchange: null,
            dispatchEvent: () => false,
          }) as MediaQueryList,
      );
    });

    it('closes the menu on a click outside it', async () => {
      const { store } = renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
      await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
      expect(store.getState().menu.mobileOpen).toBe(true);
      fireEvent.mouseDown(screen.getByText('Licenses content'));
      fireEvent.touchStart(screen.getByText('Licenses content'));
      await waitFor(() => expect(store.getState().menu.mobileOpen).toBe(false));
      expect(screen.getByRole('button', { name: 'Open menu' })).toBeInTheDocument();
    });

    it('closes the menu on Escape and gives focus back to the menu button', async () => {
      const { store } = renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
      await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
      screen.getByRole('link', { name: 'Support' }).focus();
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(store.getState().menu.mobileOpen).toBe(false));
      expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
    });

    it('keeps it open on a click inside it and closes it on navigation', async () => {
      const { store } = renderRoutes(routes, { path: '/app/licenses', preloaded: userState(ada) });
      await userEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
      fireEvent.mouseDown(screen.getByRole('heading', { name: 'Settings' }));
      expect(store.getState().menu.mobileOpen).toBe(true);
      await userEvent.click(screen.getByRole('link', { name: 'Support' }));
      expect(await screen.findByText('Support content')).toBeInTheDocument();
      await waitFor(() => expect(store.getState().menu.mobileOpen).toBe(false));
      // The chosen page takes the focus: the link is about to be hidden with the drawer.
      expect(screen.getByRole('main')).toHaveFocus();
    });
  });
});
