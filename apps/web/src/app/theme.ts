import { createTheme, type MantineColorsTuple } from '@mantine/core';
import { TOOLTIP_CLOSE_DELAY_MS, TOOLTIP_OPEN_DELAY_MS } from '@portal/contract';
import { config } from '../lib/config';

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

/** One palette, one spacing scale and one type scale for every page: Mantine's, tuned once here. */
export const theme = createTheme({
  primaryColor: config.accent,
  colors: { brand },
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "JetBrains Mono", Menlo, Consolas, monospace',
  headings: {
    fontWeight: '650',
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
    Paper: { defaultProps: { radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg' } },
  },
});
