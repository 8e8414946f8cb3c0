import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useLocation, useRoutes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error-boundary';

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

function Pages() {
  const location = useLocation();
  const element = useRoutes([
    { path: '/broken', element: <Broken /> },
    { path: '/fine', element: <p>Fine page</p> },
  ]);
  return (
    <>
      <Link to="/fine">Go on</Link>
      <RouteErrorBoundary location={location}>{element}</RouteErrorBoundary>
    </>
  );
}

describe('RouteErrorBoundary', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the error instead of an empty window, and the next navigation clears it', async () => {
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Pages />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Failed to fetch dynamically imported module' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Go on' }));
    expect(await screen.findByText('Fine page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).not.toBeInTheDocument();
  });
});
