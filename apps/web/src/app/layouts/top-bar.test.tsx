import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@portal/contract';
import { ada, LocationProbe, renderRoutes, userState, portalConfig } from '../../test/render';
import { TopBar } from './top-bar';
import { fakeFetch } from '@portal/ui/test';

const config = portalConfig;

function renderBar(mobile: boolean, profile = ada) {
  return renderRoutes(
    [
      { path: '/app/*', element: <TopBar mobile={mobile} navbarId="menu" /> },
      { path: '/login', element: <LocationProbe /> },
    ],
    { path: '/app/dashboard', preloaded: userState(profile) },
  );
}

describe('TopBar', () => {
  beforeEach(() => vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 200, body: config } }).fn));
  afterEach(() => vi.unstubAllGlobals());

  it('links the brand logo to / and the documentation to a new tab', async () => {
    renderBar(false);
    expect(screen.getByRole('link', { name: /home$/ })).toHaveAttribute('href', '/');
    const docs = await screen.findByRole('link', { name: TEXT.documentation });
    expect(docs).toHaveAttribute('href', 'https://docs.acme.example');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it("shows the 'Documentation' tooltip on hover", async () => {
    renderBar(false);
    await userEvent.hover(await screen.findByRole('link', { name: TEXT.documentation }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(TEXT.documentation);
  });

  it('has no menu toggle on wide screens', () => {
    renderBar(false);
    expect(screen.queryByRole('button', { name: /menu/ })).not.toBeInTheDocument();
  });

  it('toggles the menu on narrow screens, its label and state following', async () => {
    const { store } = renderBar(true);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(store.getState().menu.mobileOpen).toBe(true);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('redirects to /login when no profile is loaded', () => {
    renderRoutes(
      [
        { path: '/app/*', element: <TopBar mobile={false} navbarId="menu" /> },
        { path: '/login', element: <LocationProbe /> },
      ],
      { path: '/app/dashboard', preloaded: userState(null) },
    );
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });
});
