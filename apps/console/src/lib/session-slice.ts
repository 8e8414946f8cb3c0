import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ConsoleMe } from '@portal/contract';

export type Staff = ConsoleMe['staff'];

export interface SessionState {
  /** True until the start-up check (GET /api/console/auth/me) has answered. */
  checking: boolean;
  /** The signed-in staff member, or null. */
  staff: Staff | null;
}

const initialState: SessionState = { checking: true, staff: null };

/** Who is signed in to the console: the only client state besides the API cache. */
export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<Staff>) {
      state.checking = false;
      state.staff = action.payload;
    },
    signedOut(state) {
      state.checking = false;
      state.staff = null;
    },
  },
});

export const { signedIn, signedOut } = sessionSlice.actions;
