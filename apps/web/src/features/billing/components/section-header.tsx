import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';

/** The heading of a card on the billing page: a title, one line under it, and an action at the right. */
export function SectionHeader({
  title,
  description,
  action,
  order = 2,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  order?: 2 | 3;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
        <Title order={order} size={order === 2 ? 'h4' : 'h5'}>
          {title}
        </Title>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
      </Stack>
      {action}
    </Group>
  );
}
