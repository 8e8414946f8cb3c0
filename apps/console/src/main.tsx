import '@portal/ui/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './app/console.css';
import '@portal/ui/fonts';
import { Providers } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { loadSession } from './features/auth/session';

const store = makeStore();
// Before the first render: the signed-in layout shows nothing until the session is known.
void store.dispatch(loadSession());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers store={store}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
