import { useDispatch, useSelector, useStore } from 'react-redux';
import type { Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { UserState } from './user-slice';
import type { BillingState } from './billing-slice';
import type { LicenseState } from './license-slice';
import type { MenuState } from './menu-slice';

/**
 * The client state: exactly these four slices (plus the API cache, which
 * features reach only through their generated hooks). The store itself is assembled in app/store.ts.
 */
export interface ClientState {
  user: UserState;
  billing: BillingState;
  license: LicenseState;
  menu: MenuState;
}

export type AppDispatch = ThunkDispatch<ClientState, unknown, UnknownAction>;

export const useAppSelector = useSelector.withTypes<ClientState>();
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
/** The store itself, for a handler that must read the state as it is now rather than as last rendered. */
export const useAppStore = useStore.withTypes<Store<ClientState, UnknownAction> & { dispatch: AppDispatch }>();
