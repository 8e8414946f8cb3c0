import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

/** A customer named in a list row, opening their page (a deleted customer's rows keep no link). */
export function CustomerLink({ userId, children }: { userId: string | null; children: string | null }) {
  if (!userId || !children) {
    return (
      <Text size="sm" c="dimmed">
        {children ?? 'Deleted customer'}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={`/customers/${encodeURIComponent(userId)}`} size="sm" fw={500} underline="hover">
      {children}
    </Anchor>
  );
}
