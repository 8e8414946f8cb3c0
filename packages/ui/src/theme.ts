import {
  createTheme,
  defaultVariantColorsResolver,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import {
  MODAL_BACKDROP_TRANSITION_MS,
  MODAL_TRANSITION_MS,
  TOOLTIP_CLOSE_DELAY_MS,
  TOOLTIP_OPEN_DELAY_MS,
} from '@portal/contract';
import type { Accent } from './accent';
import { FONT_FAMILY } from './fonts';

/** The default brand accent (a calm indigo); VITE_ACCENT_COLOR picks another Mantine colour. */
const brand: MantineColorsTuple = [
  '#edf0ff',
  '#d9ddfa',
  '#b0b8ee',
  '#8592e3',
  '#6171d9',
  '#4a5cd4',
  '#3d52d2',
  '#2f43ba',
  '#273ba7',
  '#1b3195',
];

/**
 * The dark surfaces: a little cooler and with more contrast than the kit's greys. Text (shade 0)
 * is near white instead of the kit's mid grey (headings read as headings), the page (7) and the
 * side menu (8) are two distinct steps, cards (6) sit one step above the page.
 */
const dark: MantineColorsTuple = [
  '#e6e8eb',
  '#c3c7cd',
  '#9aa0a8',
  '#6f767f',
  '#4b5058',
  '#363a41',
  '#2a2d33',
  '#1e2025',
  '#17191d',
  '#111215',
];

/**
 * Filled yellow (a warning's button or badge) is light: black text reads on it (11:1), white does
 * not (1.9:1).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant === 'filled' && input.color === 'yellow') return { ...colors, color: 'var(--mantine-color-black)' };
  return colors;
};

/** One palette, one spacing scale and one type scale for every page: Mantine's, tuned once here. */
export const makeTheme = (accent: Accent) =>
  createTheme({
    primaryColor: accent,
    colors: { brand, dark },
    primaryShade: { light: 6, dark: 5 },
    defaultRadius: 'md',
    cursorType: 'pointer',
    variantColorResolver,
    focusRing: 'auto',
    fontFamily: FONT_FAMILY,
    fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "JetBrains Mono", Menlo, Consolas, monospace',
    // Inter (shipped with the app, fonts.ts) is dense: one step lighter than the kit's weights.
    fontWeights: { regular: '400', medium: '500', bold: '600' },
    headings: {
      fontWeight: '600',
      sizes: {
        h1: { fontSize: '1.875rem', lineHeight: '1.25' },
        h2: { fontSize: '1.5rem', lineHeight: '1.3' },
        h3: { fontSize: '1.25rem', lineHeight: '1.35' },
      },
    },
    components: {
      Tooltip: {
        defaultProps: { openDelay: TOOLTIP_OPEN_DELAY_MS, closeDelay: TOOLTIP_CLOSE_DELAY_MS, withArrow: true },
      },
      // A closed list is not in the page (the kit keeps it mounted, hidden, by default): a kept
      // list is positioned at every mount, measuring the page in the middle of its first render.
      Combobox: { defaultProps: { keepMounted: false } },
      Paper: { defaultProps: { radius: 'lg' } },
      // Links in running text must not be told apart by colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
      // The kit's close buttons have no name of their own (screen readers would say just "button"),
      // and the dialog's <header> would be announced as a second banner landmark of the page.
      // Every dialog: centred, the same transitions (dialog 300 ms, backdrop 150 ms, from the contract), one look.
      Modal: {
        defaultProps: {
          closeButtonProps: { 'aria-label': 'Close' },
          attributes: { header: { role: 'presentation' } },
          centered: true,
          radius: 'lg',
          padding: 'lg',
          transitionProps: { duration: MODAL_TRANSITION_MS },
          overlayProps: { backgroundOpacity: 0.45, blur: 2, transitionProps: { duration: MODAL_BACKDROP_TRANSITION_MS } },
        },
        styles: { title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } },
      },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'presentation' } } } },
      Card: { defaultProps: { radius: 'lg' } },
      // One badge casing: sentence case everywhere ('Paid', 'Default'), never the kit's capitals.
      Badge: { defaultProps: { radius: 'sm' }, styles: { root: { textTransform: 'none' } } },
      // Toasts: a named close button, and a description in the dimmed colour that meets AA (the
      // kit's gray-6 under a title is 3.3:1 on white).
      Notification: {
        defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
        styles: { description: { color: 'var(--mantine-color-dimmed)' } },
      },
    },
  });

/** `hex` (#rrggbb) at `alpha`, for tints that let the surface under them show through. */
function tint(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Status colours by meaning, dark enough for text in the light scheme (WCAG AA, 4.5:1). */
const STATUS_TONES = {
  // text: on white and the light tints; filled: behind white text.
  red: { text: '#b02525', filled: '#c92a2a', filledHover: '#a51d1d' },
  green: { text: '#1e6e30', filled: '#1e6e30', filledHover: '#175a27' },
  yellow: { text: '#8a5300' },
  teal: { text: '#0b6e51' },
} as const;

/**
 * Colours the kit leaves below WCAG AA (4.5:1 for text), overridden for both schemes:
 * - dimmed: the kit's gray-6 on white is 3.3:1 and dark-2 on dark-7 is 4.0:1. These reach 4.8:1
 *   or more on every surface the app puts secondary text on (body, the gray-0 side menu, gray-1
 *   and accent tints; dark-5 to dark-8 in the dark scheme).
 * - placeholder: the kit's gray-5 on white is 2.1:1 (dark-3 on dark-6 2.3:1).
 * - error: field messages in red-6 are 3.3:1 on white, and red-8 on dark-7 is 3.4:1.
 * - anchor (dark): the accent's shade 4 is 3.6:1 on dark-7; shade 3 is 5.3:1.
 * - status colours (light): green, yellow, red and teal text and light badges are 2.7 to 3.8:1 in
 *   the kit's shades; white on filled red (3.3:1) and green is too pale in both schemes.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#5f6770',
    '--mantine-color-placeholder': '#6c757d',
    '--mantine-color-error': STATUS_TONES.red.text,
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': '#adadad',
    '--mantine-color-placeholder': '#969696',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-anchor': `var(--mantine-color-${t.primaryColor}-3)`,
  };
  // Light variants in the dark scheme (tinted buttons, badges, alerts, the active menu entry): the
  // kit makes them opaque blocks of the colour's darkest shade (navy buttons, a brown warning).
  // A translucent tint of a light shade, with light text, keeps the same look as in light.
  for (const [color, shades] of Object.entries(t.colors)) {
    if (color === 'dark' || !shades) continue;
    dark[`--mantine-color-${color}-light`] = tint(shades[4], 0.16);
    dark[`--mantine-color-${color}-light-hover`] = tint(shades[4], 0.24);
    dark[`--mantine-color-${color}-light-color`] = `var(--mantine-color-${color}-2)`;
  }
  for (const [color, tone] of Object.entries(STATUS_TONES)) {
    light[`--mantine-color-${color}-text`] = tone.text;
    light[`--mantine-color-${color}-light-color`] = tone.text;
    if ('filled' in tone) {
      for (const scheme of [light, dark]) {
        scheme[`--mantine-color-${color}-filled`] = tone.filled;
        scheme[`--mantine-color-${color}-filled-hover`] = tone.filledHover;
      }
    }
  }
  return { variables: {}, light, dark };
};
