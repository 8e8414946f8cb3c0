import type { ReactNode } from 'react';
import { SimpleGrid } from '@mantine/core';

/** A form's fields two to a row from the `from` breakpoint up, one to a row below it. */
export function FieldGrid({ from = 'xs', children }: { from?: 'xs' | 'sm'; children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, [from]: 2 }} spacing="md" verticalSpacing="md">
      {children}
    </SimpleGrid>
  );
}
