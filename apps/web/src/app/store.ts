import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../lib/api';
import { billingSlice } from '../lib/state/billing-slice';
import type { ClientState } from '../lib/state/hooks';
import { licenseSlice } from '../lib/state/license-slice';
import { menuSlice } from '../lib/state/menu-slice';
import { userSlice } from '../lib/state/user-slice';

/**
 * The client state is exactly four slices, user, billing, license, menu (their reducers live in
 * lib/state so that features can use them without importing the app), plus the API cache.
 */
const rootReducer = combineReducers({
  user: userSlice.reducer,
  billing: billingSlice.reducer,
  license: licenseSlice.reducer,
  menu: menuSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store; tests pass the slices they need in `preloaded`. */
export function makeStore(preloaded?: Partial<ClientState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded as Partial<RootState> | undefined,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
