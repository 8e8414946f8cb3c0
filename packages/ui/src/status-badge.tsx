import type { ReactNode } from 'react';
import { Badge, type BadgeProps } from '@mantine/core';
import { sentenceCase, TONE_COLOR, type StatusTone } from '@portal/contract';

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
