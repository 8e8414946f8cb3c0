import { api } from '../../lib/api';
import type { ConsoleDispatch } from '../../lib/hooks';
import { signedIn, signedOut } from '../../lib/session-slice';
import { authApi } from './api';

/** The start-up check: who is signed in (a 401 or an unreachable server both mean nobody yet). */
export function loadSession() {
  return async (dispatch: ConsoleDispatch) => {
    const result = await dispatch(authApi.endpoints.me.initiate(undefined, { forceRefetch: true }));
    dispatch(result.data ? signedIn(result.data) : signedOut());
  };
}

/** Ends the staff session on the server, then forgets everything read while signed in. */
export function endSession() {
  return async (dispatch: ConsoleDispatch) => {
    await dispatch(authApi.endpoints.signOut.initiate());
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
  };
}
