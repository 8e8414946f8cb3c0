import { makeTheme, parseAccent } from '@portal/ui';

/** The kit's theme in this build's accent (VITE_ACCENT_COLOR, as the portal's build). */
export const theme = makeTheme(parseAccent(import.meta.env.VITE_ACCENT_COLOR?.trim() || null));
