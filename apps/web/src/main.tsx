import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/nprogress/styles.css';
import './app/global.css';
import { Providers } from './app/providers';
import { RouterProgress } from './app/router-progress';
import { routes } from './app/router';
import { makeStore } from './app/store';
import { api } from './lib/api';
import { loadSession } from './features/auth/session';

const store = makeStore();
// Both calls start before the first render: the layouts show nothing until the session is known.
void store.dispatch(loadSession());
void store.dispatch(api.endpoints.getConfig.initiate());

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers store={store}>
      <RouterProgress router={router} />
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
