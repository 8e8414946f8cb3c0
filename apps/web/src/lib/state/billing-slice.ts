import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface BillingState {
  /** Whether the add-payment-method dialog is shown. */
  addMethodVisible: boolean;
}

const initialState: BillingState = { addMethodVisible: false };

export const billingSlice = createSlice({
  name: 'billing',
  initialState,
  reducers: {
    setAddMethodVisible(state, action: PayloadAction<boolean>) {
      state.addMethodVisible = action.payload;
    },
  },
});

export const { setAddMethodVisible } = billingSlice.actions;
