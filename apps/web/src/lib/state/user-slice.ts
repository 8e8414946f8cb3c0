import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionUser } from '@portal/contract';

export interface UserState {
  authenticated: boolean;
  /** True until the start-up session check has answered. */
  checkingAuth: boolean;
  profile: SessionUser | null;
}

const initialState: UserState = { authenticated: false, checkingAuth: true, profile: null };

export const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {
    /** A session was found or created (start-up check, link sign-in). */
    signedIn(state, action: PayloadAction<SessionUser>) {
      state.authenticated = true;
      state.checkingAuth = false;
      state.profile = action.payload;
    },
    /**
     * No session (start-up answered 401, logout, or a call answered 401). The check is over,
     * so this is the initial state with `checkingAuth` false: nothing is left to wait for.
     */
    signedOut() {
      return { authenticated: false, checkingAuth: false, profile: null };
    },
    profileUpdated(state, action: PayloadAction<SessionUser>) {
      state.profile = action.payload;
    },
  },
});

export const { signedIn, signedOut, profileUpdated } = userSlice.actions;
