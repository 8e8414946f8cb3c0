import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMING_SOON_BADGE, NO_NAME } from '@portal/contract';
import { ada, LocationProbe, renderRoutes, userState } from '../../test/render';
import { SideMenu } from './side-menu';
import { fakeFetch } from '@portal/ui/test';

function renderMenu(profile = ada, activePage = 'Licenses') {
  return renderRoutes(
    [
      { path: '/app/*', element: <SideMenu /> },
      { path: '/login', element: <LocationProbe /> },
    ],
    {
      path: '/app/licenses',
      preloaded: {
        ...userState(profile),
        menu: { mobileOpen: false, activePage, modal: { open: false, id: null, props: {} } },
      },
    },
  );
}

describe('SideMenu', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the Dashboard and Settings entries as links', () => {
    renderMenu();
    for (const [name, href] of [
      ['Home', '/app/dashboard'],
      ['Licenses', '/app/licenses'],
      ['Support', '/app/support'],
      ['Download ISO', '/app/download-iso'],
      ['Billing', '/app/billing'],
      ['Profile', '/app/profile'],
    ]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  });

  it("shows Access Control with 'Coming soon', neither a link nor focusable", () => {
    renderMenu();
    expect(screen.queryByRole('link', { name: /Access Control/ })).not.toBeInTheDocument();
    const entry = screen.getByText('Access Control').closest('[aria-disabled="true"]');
    expect(entry).not.toBeNull();
    expect(entry!.tagName).toBe('DIV');
    expect(entry).not.toHaveAttribute('href');
    expect(entry).not.toHaveAttribute('tabindex');
    expect(entry).toHaveTextContent(COMING_SOON_BADGE);
  });

  it('highlights the entry of menu.activePage', () => {
    renderMenu(ada, 'Billing');
    expect(screen.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Billing' })).toHaveAttribute('data-active');
    expect(screen.getByRole('link', { name: 'Licenses' })).not.toHaveAttribute('aria-current');
  });

  it('shows the initials, name and e-mail of a user without a picture', () => {
    renderMenu();
    expect(screen.getByText('AL')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@acme.example')).toBeInTheDocument();
  });

  it("says 'No name' when both names are empty", () => {
    renderMenu({ ...ada, fname: '', lname: '' });
    expect(screen.getByText(NO_NAME)).toBeInTheDocument();
  });

  it('shows the picture when there is one', () => {
    renderMenu({ ...ada, picture: 'https://cdn.example/ada.png' });
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', 'https://cdn.example/ada.png');
  });

  it('redirects to /login when no profile is loaded', () => {
    renderRoutes(
      [
        { path: '/app/*', element: <SideMenu /> },
        { path: '/login', element: <LocationProbe /> },
      ],
      { path: '/app/licenses', preloaded: userState(null) },
    );
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('signs out: GET /api/auth/logout, then an empty user slice and /login', async () => {
    const fetch = fakeFetch({ 'GET /api/auth/logout': { status: 204 } });
    vi.stubGlobal('fetch', fetch.fn);
    const { store } = renderMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(fetch.calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/auth/logout');
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: false, profile: null });
  });
});
