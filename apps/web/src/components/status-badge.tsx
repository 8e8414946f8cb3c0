import type { ReactNode } from 'react';
import { Badge, type BadgeProps } from '@mantine/core';

/**
 * What a status means, and so its colour: positive (active, valid, paid) green; warning (cancelling,
 * stale, expiring soon, near a limit) yellow; critical (expired, declined, failed, at a limit) red;
 * neutral (inactive, suspended, none) grey; info (a plan, the default card: facts, not states) the accent.
 */
export type StatusTone = 'positive' | 'warning' | 'critical' | 'neutral' | 'info';

export const TONE_COLOR: Record<StatusTone, string | undefined> = {
  positive: 'green',
  warning: 'yellow',
  critical: 'red',
  neutral: 'gray',
  info: undefined,
};

/** 'PAST DUE' or 'past_due' -> 'Past due'; text already in mixed case ('Standard', 'ISO ready') is kept. */
export function sentenceCase(label: string): string {
  const words = label.replace(/_/g, ' ').trim();
  if (words === '') return words;
  const shouty = words === words.toUpperCase() || words === words.toLowerCase();
  const rest = shouty ? words.slice(1).toLowerCase() : words.slice(1);
  return words.charAt(0).toUpperCase() + rest;
}

export interface StatusBadgeProps {
  tone: StatusTone;
  children: ReactNode;
  size?: BadgeProps['size'];
  leftSection?: ReactNode;
}

/** The one badge of the app: sentence case, light, its colour chosen by what the status means. */
export function StatusBadge({ tone, children, size = 'md', leftSection }: StatusBadgeProps) {
  return (
    <Badge
      variant="light"
      color={TONE_COLOR[tone]}
      radius="sm"
      size={size}
      tt="none"
      fw={600}
      leftSection={leftSection}
      data-tone={tone}
      style={{ flexShrink: 0 }}
    >
      {typeof children === 'string' ? sentenceCase(children) : children}
    </Badge>
  );
}
