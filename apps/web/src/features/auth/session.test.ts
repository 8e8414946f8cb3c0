import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { createNoopSink, setAnalyticsSink } from '../../lib/analytics';
import { ada } from '../../test/render';
import { isSessionUnreachable, loadSession } from './session';
import { fakeFetch } from '@portal/ui/test';

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
    expect(isSessionUnreachable()).toBe(false);
  });

  it('asks for a 204 rather than a 401 when nobody is signed in, and ends the check signed out on it', async () => {
    const fake = fakeFetch({ 'GET /api/auth/session?optional=true': { status: 204 } });
    vi.stubGlobal('fetch', fake.fn);
    const store = makeStore();
    await store.dispatch(loadSession());
    expect(fake.calls.map((c) => c.path)).toEqual(['/api/auth/session?optional=true']);
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: false, profile: null });
    expect(isSessionUnreachable()).toBe(false);
  });

  it('keeps checking, and says the portal is unreachable, when the check answers 500; a retry that gets an answer ends it', async () => {
    const failing = fakeFetch({
      'GET /api/auth/session': { status: 500, body: { message: 'Something went wrong', code: 'INTERNAL' } },
    });
    vi.stubGlobal('fetch', failing.fn);
    const store = makeStore();
    await store.dispatch(loadSession());
    expect(store.getState().user).toEqual({ authenticated: false, checkingAuth: true, profile: null });
    expect(isSessionUnreachable()).toBe(true);

    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/auth/session': { status: 200, body: { user: ada } } }).fn);
    await store.dispatch(loadSession());
    expect(store.getState().user).toEqual({ authenticated: true, checkingAuth: false, profile: ada });
    expect(isSessionUnreachable()).toBe(false);
  });

  it('treats no answer at all like a 500, not as signed out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const store = makeStore();
    await store.dispatch(loadSession());
    expect(store.getState().user.checkingAuth).toBe(true);
    expect(isSessionUnreachable()).toBe(true);
  });
});
