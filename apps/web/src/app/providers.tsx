import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Provider } from 'react-redux';
import type { AppStore } from './store';
import { NotificationsHost } from './notifications-host';
import { cssVariablesResolver } from '@portal/ui';
import { theme } from './theme';

/** Redux store and Mantine theme (light and dark following the system). */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        {children}
        <NotificationsHost />
      </MantineProvider>
    </Provider>
  );
}
