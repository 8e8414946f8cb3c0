import type { ReactNode } from 'react';
import { Group, Paper, Skeleton, Stack, type MantineSpacing } from '@mantine/core';

/** A card's frame while its content loads, announced as busy under `label`. */
export function SkeletonCard({ label, gap, children }: { label: string; gap: MantineSpacing; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} aria-busy="true" aria-label={label}>
      <Stack gap={gap}>{children}</Stack>
    </Paper>
  );
}

const HEADING = {
  // A page's main card (the download).
  lg: { gap: 'md', icon: 48, lines: 8, title: [20, '40%'], text: [12, '70%'] },
  // A card header (CardHeader's 28 px tile).
  sm: { gap: 'sm', icon: 28, lines: 6, title: [16, '25%'], text: [12, '45%'] },
} as const;

/** Where a card's icon, title and one line will be. */
export function SkeletonHeading({ size }: { size: keyof typeof HEADING }) {
  const h = HEADING[size];
  return (
    <Group gap={h.gap} wrap="nowrap">
      <Skeleton height={h.icon} width={h.icon} radius="md" />
      <Stack gap={h.lines} style={{ flex: 1 }}>
        <Skeleton height={h.title[0]} width={h.title[1]} />
        <Skeleton height={h.text[0]} width={h.text[1]} />
      </Stack>
    </Group>
  );
}

/** `count` rows of a label and its value (a log line, a fact of the download). */
export function SkeletonRows({ count, height }: { count: number; height: number }) {
  return Array.from({ length: count }, (_, i) => (
    <Group key={i} gap="md" wrap="nowrap">
      <Skeleton height={height} width={120} />
      <Skeleton height={height} style={{ flex: 1 }} />
    </Group>
  ));
}
