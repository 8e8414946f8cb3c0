import type { ReactNode } from 'react';
import { Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import classes from './stat-tile.module.css';

export interface StatTileProps {
  label: string;
  value: ReactNode;
  /** A line under the figure: its period, or what it is made of. */
  hint?: ReactNode;
  icon?: ReactNode;
  /** A figure that needs someone's attention (failed payments): its value in the warning colour. */
  attention?: boolean;
}

const FIGURE_PX = 26;

/**
 * The figure's size: 26 px, or less when a long text would not fit the tile's width (an 8-digit
 * amount on a phone's two tiles a row). About 0.62 em a character, a digit's width in tabular figures.
 */
export function figureSize(value: ReactNode): string | number {
  if (typeof value !== 'string' || value.length <= 6) return FIGURE_PX;
  return `min(${FIGURE_PX}px, calc(100cqi / ${(value.length * 0.62).toFixed(2)}))`;
}

/** One figure in a card: label, the number (tabular digits), and a line of context; in a grid, on its row's line. */
export function StatTile({ label, value, hint, icon, attention = false }: StatTileProps) {
  return (
    <Paper withBorder p="md" h="100%" role="group" aria-label={label} className={classes.tile}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" c="dimmed" fw={500}>
          {label}
        </Text>
        {icon ? (
          <ThemeIcon variant="light" color={attention ? 'yellow' : 'gray'} size={28} radius="md" aria-hidden>
            {icon}
          </ThemeIcon>
        ) : null}
      </Group>
      <div className={classes.figure}>
        <Text
          fz={figureSize(value)}
          fw={600}
          lh={1.15}
          className="console-figure"
          c={attention ? 'var(--mantine-color-yellow-text)' : undefined}
        >
          {value}
        </Text>
      </div>
      {hint ? (
        <Text size="xs" c="dimmed" className={classes.hint}>
          {hint}
        </Text>
      ) : (
        <span />
      )}
    </Paper>
  );
}

/** A StatTile's frame while its figure loads, the same height as the real one. */
export function StatTileSkeleton() {
  return (
    <Paper withBorder p="md" h="100%" aria-hidden>
      <Stack gap={10}>
        <Skeleton height={14} width="55%" />
        <Skeleton height={26} width="45%" />
        <Skeleton height={10} width="70%" />
      </Stack>
    </Paper>
  );
}
