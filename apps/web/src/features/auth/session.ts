import type { SessionUser } from '@portal/contract';
import { api } from '../../lib/api';
import { identifyUser, resetAnalytics } from '../../lib/analytics';
import type { AppDispatch } from '../../lib/state/hooks';
import { signedIn, signedOut } from '../../lib/state/user-slice';
import { authApi } from './api';

/** The start-up session check: GET /api/auth/session once; 200 signs in, anything else signs out. */
export function loadSession() {
  return async (dispatch: AppDispatch): Promise<void> => {
    const result = await dispatch(authApi.endpoints.getSession.initiate(undefined, { subscribe: false, forceRefetch: true }));
    if (result.data) dispatch(startSession(result.data.user));
    else dispatch(signedOut());
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
