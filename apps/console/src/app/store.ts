import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../lib/api';
import type { ConsoleState } from '../lib/hooks';
import { sessionSlice } from '../lib/session-slice';

/**
 * A fresh store: who is signed in (the only client state) and the API cache. Tests pass the
 * session they need in `preloaded`.
 */
export function makeStore(preloaded?: ConsoleState) {
  const reducer = { session: sessionSlice.reducer, [api.reducerPath]: api.reducer };
  const store = configureStore({ reducer, preloadedState: preloaded, middleware: (base) => base().concat(api.middleware) });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
