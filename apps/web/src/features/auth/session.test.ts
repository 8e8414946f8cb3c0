import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { createNoopSink, setAnalyticsSink } from '../../lib/analytics';
import { ada, fakeFetch } from '../../test/render';
import { loadSession } from './session';

describe('loadSession', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    setAnalyticsSink(createNoopSink());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setAnalyticsSink(null);
  });

  it('starts checking, then signs in on 200 and identifies the user', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/auth/session': { status: 200, body: { user: ada } } }).fn);
    const store = makeStore();
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: true, profile: null });
    await store.dispatch(loadSession());
    expect(store.getState().user).toEqual({ authenticated: true, checkingAuth: false, profile: ada });
    expect(window.__analytics?.map((c) => c.type)).toEqual(['identify', 'group']);
  });

  it('ends the check signed out on 401', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ 'GET /api/auth/session': { status: 401, body: { message: 'Sign in first', code: 'UNAUTHENTICATED' } } }).fn,
    );
    const store = makeStore();
    await store.dispatch(loadSession());
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: false, profile: null });
    expect(window.__analytics).toBeUndefined();
  });
});
