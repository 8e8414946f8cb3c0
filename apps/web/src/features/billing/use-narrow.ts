import { useMediaQuery } from '@mantine/hooks';

const BELOW = { xs: '(max-width: 35.99em)', sm: '(max-width: 47.99em)' } as const;

/**
 * True below Mantine's `xs` (576 px) or `sm` (768 px) breakpoint: phones, where tables become lists.
 * Known at the first render, so that a phone does not draw the table and then the list.
 */
export function useNarrow(breakpoint: keyof typeof BELOW): boolean {
  return useMediaQuery(BELOW[breakpoint], undefined, { getInitialValueInEffect: false });
}
