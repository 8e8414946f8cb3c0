import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppRoutes, preloadRoutes } from '../app/router';
import type { AppStore } from '../app/store';
import { Providers } from './render';

/** The app's routes as main.tsx renders them, at `path`, on `store`: their code loaded first, as at start-up. */
export async function renderAppAt(store: AppStore, path: string) {
  await preloadRoutes(path);
  return render(
    <Providers store={store}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </Providers>,
  );
}
