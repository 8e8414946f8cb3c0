/** The brand accents a build may choose (VITE_ACCENT_COLOR): the theme's own, or a Mantine colour. */
export const ACCENTS = ['brand', 'blue', 'indigo', 'violet', 'grape', 'cyan', 'teal', 'green', 'orange'] as const;
export type Accent = (typeof ACCENTS)[number];

/** VITE_ACCENT_COLOR, checked: 'brand' when unset, an error naming the choices when unknown. */
export function parseAccent(value: string | null): Accent {
  const accent = value ?? 'brand';
  if (!(ACCENTS as readonly string[]).includes(accent)) {
    throw new Error(`VITE_ACCENT_COLOR must be one of ${ACCENTS.join(', ')} (got "${accent}")`);
  }
  return accent as Accent;
}
