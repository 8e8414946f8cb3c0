import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useLocation, useRoutes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../test/render';
import { lazyPage, retryFailedLoads } from './lazy-page';
import { entryScript, isChunkLoadError } from './new-deploy';
import { RouteErrorBoundary } from './route-error-boundary';
import { makeStore } from './store';
import { fakeFetch } from '@portal/ui/test';

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

/** A page whose code fails to download the first time and arrives the next. */
function flakyPage() {
  const load = { calls: 0 };
  const Page = lazyPage(async () => {
    load.calls += 1;
    if (load.calls === 1) throw new TypeError('Failed to fetch dynamically imported module: /assets/page-abc.js');
    return () => <p>Flaky page</p>;
  });
  return { Page, load };
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

function renderAt(path: string) {
  render(
    <Providers store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <Pages />
      </MemoryRouter>
    </Providers>,
  );
}

describe('RouteErrorBoundary', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    // The config (brand) and the deploy check (index.html) are not what these tests are about.
    vi.stubGlobal('fetch', fakeFetch({}).fn);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the portal’s error screen, not the raw error, and the next navigation clears it', async () => {
    renderAt('/broken');
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Failed to fetch/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Go on' }));
    expect(await screen.findByText('Fine page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'This page could not be loaded' })).not.toBeInTheDocument();
  });
});

describe('lazyPage after a failed download', () => {
  it('keeps the failure for the renders that follow, and downloads again once a retry is asked for', async () => {
    const { Page, load } = flakyPage();
    await expect(Page.preload()).rejects.toThrow('Failed to fetch dynamically imported module');
    await expect(Page.preload()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(load.calls).toBe(1);
    retryFailedLoads();
    await expect(Page.preload()).resolves.toBeTypeOf('function');
    expect(load.calls).toBe(2);
    retryFailedLoads();
    await Page.preload();
    expect(load.calls).toBe(2);
  });

  it('downloads again on a later visit, a few seconds after the failure', async () => {
    const { Page, load } = flakyPage();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    await expect(Page.preload()).rejects.toThrow();
    vi.spyOn(Date, 'now').mockReturnValue(now + 1_000);
    await expect(Page.preload()).rejects.toThrow();
    vi.spyOn(Date, 'now').mockReturnValue(now + 10_000);
    await expect(Page.preload()).resolves.toBeTypeOf('function');
    expect(load.calls).toBe(2);
    vi.restoreAllMocks();
  });
});

describe('new-deploy helpers', () => {
  it('tells a failed download from other errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
  });

  it('reads the entry script of a built index.html', () => {
    const html = '<head><script type="module" crossorigin src="/assets/index-AbC123.js"></script></head>';
    expect(entryScript(html)).toBe('/assets/index-AbC123.js');
    expect(entryScript('<p>no script</p>')).toBeUndefined();
  });
});
