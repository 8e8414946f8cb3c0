import type { SessionResponse, SessionUser } from '@portal/contract';
import { api } from '../../lib/api';
import { identifyUser, resetAnalytics } from '../../lib/analytics';
import type { AppDispatch } from '../../lib/state/hooks';
import { signedIn, signedOut } from '../../lib/state/user-slice';
import { authApi } from './api';

/**
 * Whether the last session check could not reach the portal (a 5xx or no answer). Kept beside the
 * user slice, not in it (that slice's shape is fixed): the layouts keep rendering nothing while it is true.
 */
let unreachable = false;
const listeners = new Set<() => void>();
function setUnreachable(value: boolean) {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

/** Subscribes to `isSessionUnreachable` (for useSyncExternalStore). */
export function subscribeSessionCheck(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isSessionUnreachable(): boolean {
  return unreachable;
}

/**
 * The start-up check asks with ?optional=true: without a session the server answers 204 (data
 * null) instead of 401, which the browser would log as an error on every visit to /login.
 */
const sessionCheckApi = authApi.injectEndpoints({
  endpoints: (builder) => ({
    checkSession: builder.query<SessionResponse | null, void>({
      query: () => '/auth/session?optional=true',
      providesTags: ['Authentication'],
    }),
  }),
});

/** A client error (401, or another 4xx but a busy or timed-out server) is a definite "no session". */
function refusesSession(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * The start-up session check: GET /api/auth/session; 200 signs in, 204 (or 401) signs out. A 5xx, a
 * 408 or 429, or no answer at all says nothing about the session: the check stays open and
 * `isSessionUnreachable` turns true until a later call (a retry) gets an answer.
 */
export function loadSession() {
  return async (dispatch: AppDispatch): Promise<void> => {
    const result = await dispatch(
      sessionCheckApi.endpoints.checkSession.initiate(undefined, { subscribe: false, forceRefetch: true }),
    );
    if (result.data) {
      setUnreachable(false);
      dispatch(startSession(result.data.user));
    } else if (result.isSuccess || refusesSession(result.error)) {
      setUnreachable(false);
      dispatch(signedOut());
    } else {
      setUnreachable(true);
    }
  };
}

/** Stores the signed-in user and identifies them to analytics. */
export function startSession(user: SessionUser) {
  return (dispatch: AppDispatch): void => {
    dispatch(signedIn(user));
    identifyUser(user);
  };
}

/** Ends the session: the server call, then the local state (whatever the server said). */
export function endSession() {
  return async (dispatch: AppDispatch): Promise<void> => {
    await dispatch(authApi.endpoints.logout.initiate()).catch(() => undefined);
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    resetAnalytics();
  };
}
