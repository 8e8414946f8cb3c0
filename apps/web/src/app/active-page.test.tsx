import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGES, pageTitleAt } from '../lib/pages';
import { setActivePage } from '../lib/state/menu-slice';
import { ada, portalConfig, userState } from '../test/render';
import { renderAppAt } from '../test/render-app';
import { makeStore } from './store';
import { fakeFetch } from '@portal/ui/test';

describe('pageTitleAt', () => {
  it('names the signed-in page at an address, with or without a trailing slash', () => {
    expect(pageTitleAt('/app/dashboard')).toBe('Home');
    expect(pageTitleAt('/app/billing/')).toBe('Billing');
    expect(pageTitleAt('/app/download-iso')).toBe('Download ISO');
  });

  it('names nothing for other addresses', () => {
    expect(pageTitleAt('/login')).toBe('');
    expect(pageTitleAt('/app')).toBe('');
    expect(pageTitleAt('/app/billing/invoices')).toBe('');
  });
});

describe('the page opened first', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    // Reads other than the configuration fail: each page still draws its heading.
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/config': { status: 200, body: portalConfig } }).fn);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  // main.tsx marks the page from the address before the first render (docs/decisions/134): the
  // page then sets the same title, and the shell is not drawn a second time for it.
  it.each(Object.values(PAGES).map((p) => p.path))('%s sets the title its address gives', async (path) => {
    const store = makeStore(userState(ada));
    store.dispatch(setActivePage(pageTitleAt(path)));
    const titles: string[] = [];
    store.subscribe(() => titles.push(store.getState().menu.activePage));
    await renderAppAt(store, path);
    await screen.findByRole('heading', { level: 1 });
    // The side menu marks it (Access Control's entry is disabled: no link).
    if (path !== PAGES.accessControl.path) {
      expect(screen.getByRole('link', { current: 'page' })).toHaveTextContent(pageTitleAt(path));
    }
    expect(store.getState().menu.activePage).toBe(pageTitleAt(path));
    expect(new Set(titles)).toEqual(new Set([pageTitleAt(path)]));
  });
});
