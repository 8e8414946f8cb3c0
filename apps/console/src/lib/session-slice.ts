import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ConsoleMe, SecondFactorStatus } from '@portal/contract';

export type Staff = ConsoleMe['staff'];

export interface SessionState {
  /** True until the start-up check (GET /api/console/auth/me) has answered. */
  checking: boolean;
  /** The signed-in staff member, or null. */
  staff: Staff | null;
  /** Where the session stands with its second factor (`verify` or `enroll`: nothing else yet). */
  secondFactor: SecondFactorStatus | null;
}

const initialState: SessionState = { checking: true, staff: null, secondFactor: null };

/** Who is signed in to the console: the only client state besides the API cache. */
export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<ConsoleMe>) {
      state.checking = false;
      state.staff = action.payload.staff;
      state.secondFactor = action.payload.secondFactor;
    },
    signedOut(state) {
      state.checking = false;
      state.staff = null;
      state.secondFactor = null;
    },
  },
});

export const { signedIn, signedOut } = sessionSlice.actions;
