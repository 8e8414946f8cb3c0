import { notifications } from '@mantine/notifications';
import { afterEach } from 'vitest';

// What the console's components need of the browser beyond the portal's shims (../web/src/test/setup.ts):
// the autosizing textarea of the action dialogs listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

// Toasts live in a store of the kit's module, not in the rendered tree: one test's must not show in the next.
afterEach(() => notifications.clean());
