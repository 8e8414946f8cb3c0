import { useState } from 'react';
import { ActionIcon, Anchor, Button, Group, Modal, NumberInput, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash, IconWebhook } from '@tabler/icons-react';
import { type WebhookEndpoint, formatDate } from '@portal/contract';
import { Link, Navigate } from 'react-router';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useMay } from '../../../lib/permissions';
import {
  useDeleteWebhookEndpointMutation,
  useListWebhookEndpointsQuery,
  useRotateWebhookSecretMutation,
  useUpdateWebhookEndpointMutation,
} from '../api';
import { AddEndpointDialog } from './add-endpoint-dialog';
import { ReasonForm } from '../../../components/reason-dialog';
import { SecretOnce } from './secret-once';
import { EmptyState, ListCard, StatusBadge } from '@portal/ui';

type Pending = { kind: 'toggle' | 'delete' | 'rotate'; endpoint: WebhookEndpoint } | null;

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <StatusBadge tone="positive">Enabled</StatusBadge>;
  if (endpoint.disabledReason === 'failing') return <StatusBadge tone="critical">Turned off: failing</StatusBadge>;
  return <StatusBadge tone="neutral">Off</StatusBadge>;
}

/** /webhooks (owners): where the portal sends its events, each endpoint's secret and delivery log. */
export default function WebhooksPage() {
  const mayList = useMay('listWebhookEndpoints');
  const list = useListWebhookEndpointsQuery(undefined, { skip: !mayList });
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  if (!mayList) return <Navigate to="/overview" replace />;

  return (
    <PageFrame
      title="Webhooks"
      description="Endpoints of your other systems that receive the portal's events, signed with Standard Webhooks."
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Add endpoint
        </Button>
      }
    >
      <ListCard
        query={list}
        loadingLabel="Loading endpoints"
        loadingRows={3}
        empty={
          <EmptyState
            icon={<IconWebhook />}
            title="No endpoints yet"
            description="Add your CRM's or support desk's URL to receive customer, subscription, invoice, license and node events."
          />
        }
        minWidth={760}
        aria-label="Webhook endpoints"
        className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards} ${tableClasses.inset}`}
        head={
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th w="24%">Events</Table.Th>
              <Table.Th w={170}>Status</Table.Th>
              <Table.Th w={120}>Added</Table.Th>
              <Table.Th w={124}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        }
      >
        {(items) =>
          items.map((e) => {
            const events = e.eventTypes.length === 0 ? 'All events' : e.eventTypes.join(', ');
            return (
              <Table.Tr key={e.id}>
                <Table.Td data-label="URL">
                  {/* A long address is cut here, whole on hover and on its delivery log. */}
                  <div>
                    {/* A block of 24 px: a tap target WCAG 2.2 accepts on a phone's card. */}
                    <Anchor
                      component={Link}
                      to={`/webhooks/${e.id}`}
                      ff="monospace"
                      size="sm"
                      lh="24px"
                      className={tableClasses.truncate}
                      title={e.url}
                    >
                      {e.url}
                    </Anchor>
                    {e.description ? (
                      <Text size="xs" c="dimmed" fw={400} truncate="end" title={e.description}>
                        {e.description}
                      </Text>
                    ) : null}
                  </div>
                </Table.Td>
                <Table.Td data-label="Events">
                  <Text size="sm" className={tableClasses.wrap} title={events}>
                    {events}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Status">
                  <EndpointStatus endpoint={e} />
                </Table.Td>
                <Table.Td data-label="Added">{formatDate(e.createdAt)}</Table.Td>
                <Table.Td data-menu>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={`${e.enabled ? 'Turn off' : 'Turn on'} ${e.url}`}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`${e.enabled ? 'Turn off' : 'Turn on'} ${e.url}`}
                        onClick={() => setPending({ kind: 'toggle', endpoint: e })}
                      >
                        {e.enabled ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={`Rotate the secret of ${e.url}`}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={`Rotate the secret of ${e.url}`}
                        onClick={() => setPending({ kind: 'rotate', endpoint: e })}
                      >
                        <IconKey size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={`Delete ${e.url}`}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${e.url}`}
                        onClick={() => setPending({ kind: 'delete', endpoint: e })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })
        }
      </ListCard>
      <AddEndpointDialog opened={adding} onClose={() => setAdding(false)} />
      <EndpointActionDialog pending={pending} onClose={() => setPending(null)} />
    </PageFrame>
  );
}

const TITLES = { toggle: 'Turn endpoint off or on', delete: 'Delete endpoint', rotate: 'Rotate signing secret' } as const;

function EndpointActionDialog({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const [update] = useUpdateWebhookEndpointMutation();
  const [remove] = useDeleteWebhookEndpointMutation();
  const [rotate] = useRotateWebhookSecretMutation();
  const [overlapHours, setOverlapHours] = useState<number>(24);
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  const e = pending?.endpoint;
  const title =
    pending?.kind === 'toggle' ? (e?.enabled ? 'Turn endpoint off' : 'Turn endpoint on') : pending ? TITLES[pending.kind] : '';
  return (
    <Modal opened={pending !== null} onClose={close} title={secret ? 'New signing secret' : title}>
      {!pending || !e ? null : secret ? (
        <SecretOnce secret={secret} onDone={close} />
      ) : (
        <ReasonForm
          confirm={pending.kind === 'delete' ? 'Delete endpoint' : pending.kind === 'rotate' ? 'Rotate secret' : title}
          color={pending.kind === 'delete' ? 'red' : undefined}
          onClose={close}
          onConfirm={async (reason) => {
            if (pending.kind === 'toggle') {
              const r = await update({ id: e.id, body: { enabled: !e.enabled, reason } });
              if ('error' in r) return r.error;
              notifications.show({
                color: 'green',
                title: e.enabled ? 'Endpoint turned off' : 'Endpoint turned on',
                message: e.url,
              });
              close();
            } else if (pending.kind === 'delete') {
              const r = await remove({ id: e.id, reason });
              if ('error' in r) return r.error;
              notifications.show({ color: 'green', title: 'Endpoint deleted', message: e.url });
              close();
            } else {
              const r = await rotate({ id: e.id, body: { overlapHours, reason } });
              if ('error' in r) return r.error;
              setSecret(r.data.secret);
            }
            return undefined;
          }}
        >
          <Text size="sm">
            {pending.kind === 'delete'
              ? 'The endpoint and its delivery log are deleted; events waiting for it are not sent.'
              : pending.kind === 'rotate'
                ? 'A new secret is shown once. The current one keeps signing beside it for the overlap, while you deploy the new one.'
                : e.enabled
                  ? 'No events are sent to it while it is off; those waiting are cancelled (resend them from its log).'
                  : 'Events are sent to it again from now on.'}{' '}
            <Text span ff="monospace" size="sm">
              {e.url}
            </Text>
          </Text>
          {pending.kind === 'rotate' ? (
            <NumberInput
              label="Overlap (hours)"
              description="How long the current secret keeps signing (0 to 168)."
              min={0}
              max={168}
              value={overlapHours}
              onChange={(v) => setOverlapHours(typeof v === 'number' ? v : 0)}
            />
          ) : null}
        </ReasonForm>
      )}
    </Modal>
  );
}
