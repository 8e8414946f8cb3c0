import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { Provider } from 'react-redux';
import { cssVariablesResolver } from '@portal/ui';
import { theme } from './theme';
import type { AppStore } from './store';

/** Redux store and the portal's theme (light and dark following the system), and the toasts. */
export function Providers({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        {children}
        {/* At the bottom: at the top right they covered the search box and its results, where staff look next. */}
        <Notifications position="bottom-right" />
      </MantineProvider>
    </Provider>
  );
}
