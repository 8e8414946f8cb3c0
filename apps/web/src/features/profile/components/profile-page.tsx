import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import { displayName } from '@portal/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { UserAvatar } from '../../../components/user-avatar';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';

/** /app/profile */
export function ProfilePage() {
  const profile = useAppSelector((s) => s.user.profile);
  return (
    <PageFrame title={PAGES.profile.title} description="Your name, company and account.">
      {profile ? (
        <Paper withBorder radius="lg" p="lg">
          <Group gap="md" wrap="nowrap">
            <UserAvatar user={profile} size={56} />
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} truncate>
                {displayName(profile)}
              </Text>
              <Text size="sm" c="dimmed" truncate>
                {profile.email}
              </Text>
              {profile.company ? (
                <Text size="sm" c="dimmed" truncate>
                  {profile.company}
                </Text>
              ) : null}
            </Stack>
          </Group>
        </Paper>
      ) : null}
      <EmptyState
        icon={<IconUserCircle size={28} stroke={1.6} />}
        title="Profile settings are coming"
        description="Editing your name and company, and deleting your account, will be possible here."
        action={
          <Button component={Link} to={PAGES.home.path} variant="light">
            Back to Home
          </Button>
        }
      />
    </PageFrame>
  );
}
