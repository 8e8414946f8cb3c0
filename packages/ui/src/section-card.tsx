import type { ReactNode } from 'react';
import { Paper, Stack, type MantineSpacing } from '@mantine/core';
import { CardHeader, type CardHeaderProps } from './card-header';

export interface SectionCardProps extends CardHeaderProps {
  /** Space between the header and each block under it. */
  gap?: MantineSpacing;
  children?: ReactNode;
}

/** A page's card: the border and padding of every card, its CardHeader, then its content. */
export function SectionCard({ gap = 'md', children, ...header }: SectionCardProps) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap={gap}>
        <CardHeader {...header} />
        {children}
      </Stack>
    </Paper>
  );
}
