import type { ReactNode } from 'react';
import { EmptyState as MantineEmptyState, Paper } from '@mantine/core';

export interface EmptyStateProps {
  /** A Tabler icon element, e.g. <IconKey />. */
  icon: ReactNode;
  title: ReactNode;
  /** One sentence: why it is empty and what happens next. */
  description: ReactNode;
  /** The next action: a button or link. */
  action?: ReactNode;
  /** Render without the surrounding card, for use inside an existing card. */
  bare?: boolean;
}

/** The designed empty state of a list or page: icon, a sentence, and the next action. */
export function EmptyState({ icon, title, description, action, bare = false }: EmptyStateProps) {
  const body = (
    <MantineEmptyState
      icon={icon}
      title={title}
      description={description}
      variant="light"
      size="md"
      py="xl"
      px="md"
      styles={{ description: { maxWidth: 440, textWrap: 'pretty' } }}
    >
      {action ? <MantineEmptyState.Actions>{action}</MantineEmptyState.Actions> : null}
    </MantineEmptyState>
  );
  if (bare) return body;
  return (
    <Paper withBorder radius="lg" py="xl">
      {body}
    </Paper>
  );
}
