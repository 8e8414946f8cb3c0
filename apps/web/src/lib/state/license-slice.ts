import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface LicenseState {
  /** A license key to draw attention to (for example the one a checkout just issued). */
  highlight: string | null;
}

const initialState: LicenseState = { highlight: null };

export const licenseSlice = createSlice({
  name: 'license',
  initialState,
  reducers: {
    setHighlight(state, action: PayloadAction<string | null>) {
      state.highlight = action.payload;
    },
  },
});

export const { setHighlight } = licenseSlice.actions;
