import { makeTheme } from '@portal/ui';
import { config } from '../lib/config';

/** The kit's theme in this build's accent (VITE_ACCENT_COLOR). */
export const theme = makeTheme(config.accent);
