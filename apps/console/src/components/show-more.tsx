import { useState, type ReactNode } from 'react';
import { Button, Stack } from '@mantine/core';

export interface ShowMoreProps<T> {
  items: readonly T[];
  /** How many show at first. */
  initial: number;
  render: (item: T) => ReactNode;
  /** What the items are, for the button: 'sign-ins'. */
  noun: string;
}

/** A long list shown by its first items, with a button for the rest. */
export function ShowMore<T>({ items, initial, render, noun }: ShowMoreProps<T>) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, initial);
  return (
    <Stack gap="sm">
      {shown.map(render)}
      {items.length > initial ? (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll((a) => !a)} w="fit-content">
          {all ? `Show fewer ${noun}` : `Show all ${items.length} ${noun}`}
        </Button>
      ) : null}
    </Stack>
  );
}
