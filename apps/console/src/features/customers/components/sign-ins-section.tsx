import { Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { type ConsoleSignIn, formatDateTime, formatRelative } from '@portal/contract';
import { ShowMore } from '../../../components/show-more';
import { SectionCard, StatusBadge } from '@portal/ui';

const METHOD: Record<string, string> = { link: 'E-mail link', email: 'E-mail link', google: 'Google' };

/** The customer's sessions, newest first: how they signed in, when, and whether the session still works. */
export function SignInsSection({ signIns }: { signIns: ConsoleSignIn[] }) {
  const now = new Date();
  return (
    <SectionCard
      icon={<IconLogin2 size={18} stroke={1.6} />}
      title="Sign-in history"
      description="Sessions, newest first"
      gap="sm"
    >
      {signIns.length === 0 ? (
        <Text size="sm" c="dimmed">
          Never signed in.
        </Text>
      ) : (
        <ShowMore
          items={signIns}
          initial={5}
          noun="sign-ins"
          render={(s) => (
            <Group key={`${s.createdAt}-${s.method}`} justify="space-between" wrap="nowrap" gap="sm">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {METHOD[s.method] ?? s.method}
                </Text>
                <Tooltip label={`Last active ${formatDateTime(s.lastSeenAt)}`}>
                  <Text size="xs" c="dimmed" w="fit-content">
                    {formatDateTime(s.createdAt)} · active {formatRelative(s.lastSeenAt, now)}
                  </Text>
                </Tooltip>
              </Stack>
              <StatusBadge tone={s.active ? 'positive' : 'neutral'} size="sm">
                {s.active ? 'Active' : 'Ended'}
              </StatusBadge>
            </Group>
          )}
        />
      )}
    </SectionCard>
  );
}
