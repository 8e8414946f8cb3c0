import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconApi, IconPlus, IconTrash } from '@tabler/icons-react';
import { API_TOKEN_LIMIT, type ApiToken, formatDate, formatDateTime, formatRelative } from '@portal/contract';
import { useListApiTokensQuery, useRevokeApiTokenMutation } from '../api';
import { CreateApiTokenDialog } from './create-api-token-dialog';
import { EmptyState, ErrorDisplay, SectionCard, SkeletonRows } from '@portal/ui';

/** Personal API tokens: what exists, when each was last used, a new one, and revocation. */
export function ApiTokens() {
  const { data, isLoading, isFetching, error, refetch } = useListApiTokensQuery();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const full = (data?.items.length ?? 0) >= API_TOKEN_LIMIT;
  const now = new Date();

  return (
    <SectionCard
      icon={<IconApi size={18} stroke={1.7} />}
      title="API tokens"
      titleId="api-tokens-title"
      description="Let scripts and pipelines read your licenses, release nodes and download the ISO without a browser."
    >
      <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />
      {full ? (
        <Text size="sm" c="dimmed">
          You have {API_TOKEN_LIMIT} tokens, the most an account can hold. Revoke one you no longer use to create another.
        </Text>
      ) : null}
      {isLoading ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading API tokens">
          <SkeletonRows count={2} height={14} />
        </Stack>
      ) : data && data.items.length === 0 ? (
        <EmptyState
          bare
          icon={<IconApi size={28} stroke={1.6} />}
          title="No API tokens"
          description="Create a token for each script or pipeline. It acts for you with the scopes you choose, and you can revoke it at any time."
        />
      ) : data ? (
        <Stack gap="sm" component="ul" aria-labelledby="api-tokens-title" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((token) => (
            <TokenItem key={token.id} token={token} now={now} onRevoke={() => setRevoking(token)} />
          ))}
        </Stack>
      ) : null}
      <Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} disabled={full || isLoading}>
          Create token
        </Button>
      </Group>
      <CreateApiTokenDialog opened={creating} onClose={() => setCreating(false)} />
      <RevokeDialog token={revoking} onClose={() => setRevoking(null)} />
    </SectionCard>
  );
}

/** The last use is kept to the minute: within its minute it reads 'this minute', not '14 seconds ago'. */
export function lastUsedText(iso: string, now: Date): string {
  const at = new Date(iso);
  return now.getTime() - at.getTime() < 60_000 ? 'this minute' : formatRelative(at, now);
}

function TokenItem({ token, now, onRevoke }: { token: ApiToken; now: Date; onRevoke: () => void }) {
  const expired = token.expiresAt !== null && new Date(token.expiresAt) <= now;
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={`API token ${token.name}`}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {token.name}
            </Text>
            <Text span ff="monospace" size="xs" c="dimmed" aria-label="Token starts with">
              {token.hint}…
            </Text>
            {expired ? (
              <Badge color="red" variant="light" size="sm">
                Expired
              </Badge>
            ) : null}
          </Group>
          <Group gap={6} wrap="wrap" aria-label="Scopes">
            {token.scopes.map((scope) => (
              <Badge key={scope} variant="default" size="sm" ff="monospace" tt="none">
                {scope}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed">
            Created {formatDate(token.createdAt)} · Last used{' '}
            {token.lastUsedAt ? (
              <time dateTime={token.lastUsedAt} title={formatDateTime(token.lastUsedAt)}>
                {lastUsedText(token.lastUsedAt, now)}
              </time>
            ) : (
              'never'
            )}{' '}
            · {token.expiresAt ? `${expired ? 'Expired' : 'Expires'} ${formatDate(token.expiresAt)}` : 'Never expires'}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="default"
          c="red"
          leftSection={<IconTrash size={14} />}
          onClick={onRevoke}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </Button>
      </Group>
    </Paper>
  );
}

function RevokeDialog({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const [revoke, revocation] = useRevokeApiTokenMutation();
  const close = () => {
    if (revocation.isLoading) return;
    revocation.reset();
    onClose();
  };
  const onConfirm = async () => {
    if (!token) return;
    const result = await revoke(token.id);
    if ('error' in result) return;
    notifications.show({ color: 'gray', title: 'Token revoked', message: `“${token.name}” no longer works.` });
    close();
  };
  return (
    <Modal opened={token !== null} onClose={close} title="Revoke this API token?">
      <Stack gap="md">
        <Text size="sm">
          Scripts and pipelines that use “{token?.name}” get 401 from now on. This cannot be undone; create a new token if you
          need one again.
        </Text>
        <ErrorDisplay error={revocation.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={revocation.isLoading}>
            Cancel
          </Button>
          <Button
            color="red"
            leftSection={<IconTrash size={16} />}
            loading={revocation.isLoading}
            onClick={() => void onConfirm()}
          >
            Revoke token
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
