// Inter, shipped with the app (latin and other subsets split by unicode-range, so a page downloads
// only the ones it uses) instead of hoping it is installed: every system shows the same product.
import '@fontsource-variable/inter/index.css';

/**
 * Inter, then a local face with Inter's metrics (fonts.css) while Inter loads, so that the swap
 * (font-display: swap) does not move the text, then the systems' own faces.
 */
export const FONT_FAMILY =
  '"Inter Variable", "Inter Fallback", ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
