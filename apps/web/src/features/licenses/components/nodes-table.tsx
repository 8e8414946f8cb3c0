import { useEffect, useState } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconServer2, IconTrash } from '@tabler/icons-react';
import { NODE_STALE_AFTER_HOURS, type LicenseNode, formatDate, formatDateTime, formatRelative, isStale } from '@portal/contract';
import { useListNodesQuery } from '../api';
import { NODES_PAGE_SIZE } from '../license-display';
import { nodeName, ReleaseNodeModal } from './release-node-modal';
import classes from './licenses.module.css';
import { EmptyState, ErrorDisplay, TableCard, lastPage, CopyIcon, ListFooter, ToneBadge, ToneText } from '@portal/ui';

/**
 * The time of this render; a render every minute keeps 'last seen' and 'stale' true while the
 * view stays open (renders after a refetch take the time afresh too).
 */
function useNow(): Date {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 60_000);
    return () => clearInterval(timer);
  }, []);
  return new Date();
}

const STALE_HINT = `Not seen for over ${NODE_STALE_AFTER_HOURS} hours`;

function StaleBadge() {
  return (
    <Tooltip label={STALE_HINT}>
      <span>
        <ToneBadge tone="warn" color="yellow">
          Stale
        </ToneBadge>
      </span>
    </Tooltip>
  );
}

function Hostname({ node }: { node: LicenseNode }) {
  return node.hostname ? (
    <Text size="sm" fw={500} className={classes.hostname} title={node.hostname}>
      {node.hostname}
    </Text>
  ) : (
    <Text size="sm" c="dimmed" fs="italic">
      No hostname
    </Text>
  );
}

function Fingerprint({ node }: { node: LicenseNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" className={classes.fingerprint} title={node.fingerprint}>
        {node.fingerprint}
      </Text>
      <CopyIcon value={node.fingerprint} label="Copy fingerprint" />
    </Group>
  );
}

function LastSeen({ node, now, labelled = false }: { node: LicenseNode; now: Date; labelled?: boolean }) {
  const stale = isStale(node, now);
  // A server clock slightly ahead of this one must not read 'in 2 seconds'.
  const seen = Math.min(new Date(node.lastSeenAt).getTime(), now.getTime());
  const ago = formatRelative(new Date(seen), now);
  return (
    <Group gap="xs" wrap="nowrap">
      <Tooltip label={formatDateTime(node.lastSeenAt)}>
        <ToneText tone={stale ? 'warn' : null} size="sm" style={{ whiteSpace: 'nowrap' }}>
          {labelled ? `Last seen ${ago}` : ago}
        </ToneText>
      </Tooltip>
      {stale ? <StaleBadge /> : null}
    </Group>
  );
}

function ReleaseButton({ node, onRelease }: { node: LicenseNode; onRelease: (node: LicenseNode) => void }) {
  return (
    <Button
      variant="subtle"
      color="red"
      size="xs"
      leftSection={<IconTrash size={14} />}
      aria-label={`Release node ${nodeName(node)}`}
      onClick={() => onRelease(node)}
      // Never squeezed: its label stays whole beside a long hostname.
      style={{ flexShrink: 0 }}
    >
      Release
    </Button>
  );
}

/** The nodes of one license: who they are, when activated and last seen, stale ones marked; release with a confirmation. */
export function NodesSection({ licenseKey, compact }: { licenseKey: string; compact: boolean }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading, isFetching, refetch } = useListNodesQuery({ licenseKey, page, size: NODES_PAGE_SIZE });
  const [releasing, setReleasing] = useState<{ node: LicenseNode | null; opened: boolean }>({ node: null, opened: false });
  const now = useNow();

  // A release can empty the last page: show the one before it.
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPage(lastPage(data.total, NODES_PAGE_SIZE));
  }, [data, page]);

  const onRelease = (node: LicenseNode) => setReleasing({ node, opened: true });
  const staleCount = data?.items.filter((n) => isStale(n, now)).length ?? 0;

  let body;
  if (isLoading) {
    body = (
      <Paper withBorder p="md" aria-busy="true" aria-label="Loading nodes">
        <Stack gap="sm">
          {[0, 1].map((i) => (
            <Group key={i} gap="lg" wrap="nowrap">
              <Skeleton height={16} width="22%" radius="sm" />
              <Skeleton height={16} width="30%" radius="sm" />
              <Skeleton height={16} width="18%" radius="sm" />
              <Skeleton height={16} width="14%" radius="sm" />
            </Group>
          ))}
        </Stack>
      </Paper>
    );
  } else if (!data) {
    body = <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />;
  } else if (data.total === 0) {
    body = (
      <EmptyState
        icon={<IconServer2 size={26} stroke={1.6} />}
        title="No nodes activated yet"
        description="A machine running the product activates itself with this key (see How nodes activate below), or add one here with Activate node."
      />
    );
  } else if (compact) {
    body = (
      <Stack gap="sm" role="list" aria-label="Nodes">
        {data.items.map((node) => (
          <Paper key={node.id} withBorder p="sm" role="listitem">
            <Stack gap={6}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Hostname node={node} />
                </div>
                <ReleaseButton node={node} onRelease={onRelease} />
              </Group>
              <Fingerprint node={node} />
              <Group justify="space-between" gap="xs">
                <Text size="xs" c="dimmed">
                  Activated {formatDate(node.activatedAt)}
                </Text>
                <LastSeen node={node} now={now} labelled />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  } else {
    body = (
      // No minimum width: the columns fit the view (long names are cut with an ellipsis), so the row
      // action is never scrolled out of sight.
      <TableCard
        minWidth={0}
        horizontalSpacing="sm"
        aria-label="Nodes"
        head={
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Hostname</Table.Th>
              <Table.Th>Fingerprint</Table.Th>
              <Table.Th>Activated</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th className={classes.actionCell}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        }
      >
        {data.items.map((node) => (
          <Table.Tr key={node.id}>
            <Table.Td>
              <Hostname node={node} />
            </Table.Td>
            <Table.Td>
              <Fingerprint node={node} />
            </Table.Td>
            <Table.Td>
              <Tooltip label={formatDateTime(node.activatedAt)}>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(node.activatedAt)}
                </Text>
              </Tooltip>
            </Table.Td>
            <Table.Td>
              <LastSeen node={node} now={now} />
            </Table.Td>
            <Table.Td ta="right" className={classes.actionCell}>
              <ReleaseButton node={node} onRelease={onRelease} />
            </Table.Td>
          </Table.Tr>
        ))}
      </TableCard>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby={`nodes-${licenseKey}`}>
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h4" id={`nodes-${licenseKey}`}>
          Nodes
        </Title>
        {staleCount > 0 ? (
          <ToneText tone="warn" size="sm" fw={500}>
            {staleCount === 1 ? '1 node has' : `${staleCount} nodes have`} not been seen for over {NODE_STALE_AFTER_HOURS} hours
          </ToneText>
        ) : null}
      </Group>
      {body}
      {data && error ? <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} /> : null}
      {data && data.total > 0 ? (
        <ListFooter
          page={page}
          size={NODES_PAGE_SIZE}
          total={data.total}
          noun={['node', 'nodes']}
          onChange={setPage}
          label="Pages of nodes"
        />
      ) : null}
      <ReleaseNodeModal
        licenseKey={licenseKey}
        node={releasing.node}
        opened={releasing.opened}
        onClose={() => setReleasing((r) => ({ ...r, opened: false }))}
      />
    </Stack>
  );
}
