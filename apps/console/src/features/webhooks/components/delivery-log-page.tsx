import { useState } from 'react';
import { Button, Code, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconListDetails } from '@tabler/icons-react';
import { type WebhookAttempt, formatDateTime } from '@portal/contract';
import { Navigate, useParams } from 'react-router';
import tableClasses from '../../../components/data-table.module.css';
import { PageFrame } from '../../../components/page-frame';
import { useMay } from '../../../lib/permissions';
import { useListWebhookAttemptsQuery, useListWebhookEndpointsQuery, useResendWebhookMutation } from '../api';
import { ReasonDialog } from '../../../components/reason-dialog';
import { EndpointStatus } from './webhooks-page';
import { EmptyState, ListCard, ListFooter, StatusBadge } from '@portal/ui';

function Answer({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.responseStatus !== null && attempt.error === null) {
    return <StatusBadge tone="positive">{String(attempt.responseStatus)}</StatusBadge>;
  }
  // A block, not a flex column: the badge follows the cell's alignment (start on a laptop, end on a phone's card).
  return (
    <div>
      <StatusBadge tone="critical">{attempt.responseStatus === null ? 'No answer' : String(attempt.responseStatus)}</StatusBadge>
      {attempt.responseStatus === null && attempt.error ? (
        <Text
          size="xs"
          c="dimmed"
          mt={2}
          lineClamp={2}
          title={attempt.error}
          style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}
        >
          {attempt.error}
        </Text>
      ) : null}
    </div>
  );
}

/** /webhooks/{id} (owners): an endpoint's delivery log, newest attempt first, with resend. */
export default function DeliveryLogPage() {
  const { endpointId = '' } = useParams();
  const mayList = useMay('listWebhookAttempts');
  const [page, setPage] = useState(1);
  const endpoints = useListWebhookEndpointsQuery(undefined, { skip: !mayList });
  const list = useListWebhookAttemptsQuery({ id: endpointId, page }, { skip: !mayList });
  const [shown, setShown] = useState<WebhookAttempt | null>(null);
  const [resending, setResending] = useState<WebhookAttempt | null>(null);
  const [resend] = useResendWebhookMutation();
  if (!mayList) return <Navigate to="/overview" replace />;
  const endpoint = endpoints.data?.items.find((e) => e.id === endpointId);

  return (
    <PageFrame
      title="Delivery log"
      documentTitle="Webhook delivery log"
      back={{ to: '/webhooks', label: 'Webhooks' }}
      description={
        endpoint ? (
          <Group gap="xs" component="span">
            {/* A long address breaks anywhere rather than widen the page on a phone. */}
            <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {endpoint.url}
            </Text>
            <EndpointStatus endpoint={endpoint} />
          </Group>
        ) : (
          'Every attempt to deliver an event to this endpoint, newest first.'
        )
      }
    >
      <ListCard
        query={list}
        loadingLabel="Loading the delivery log"
        loadingRows={5}
        empty={
          <EmptyState
            icon={<IconListDetails />}
            title="Nothing delivered yet"
            description="Attempts show here as soon as an event this endpoint wants happens."
          />
        }
        footer={
          list.data ? (
            <ListFooter
              page={list.data.page}
              size={list.data.size}
              total={list.data.total}
              noun={['attempt', 'attempts']}
              onChange={setPage}
              label="Pages of delivery attempts"
            />
          ) : null
        }
        minWidth={760}
        aria-label="Delivery attempts"
        className={`${tableClasses.table} ${tableClasses.fixed} ${tableClasses.cards} ${tableClasses.inset}`}
        head={
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={190}>Time</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th w={90} ta="right">
                Attempt
              </Table.Th>
              <Table.Th w={200}>Answer</Table.Th>
              <Table.Th w={100} ta="right">
                Duration
              </Table.Th>
              <Table.Th w={170}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        }
      >
        {(items) =>
          items.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td data-label="Time">{formatDateTime(a.at)}</Table.Td>
              <Table.Td data-label="Event">
                <Text size="sm" ff="monospace" className={tableClasses.truncate} title={a.eventType}>
                  {a.eventType}
                </Text>
              </Table.Td>
              <Table.Td ta="right" data-label="Attempt">
                {a.attempt}
              </Table.Td>
              <Table.Td data-label="Answer">
                <Answer attempt={a} />
              </Table.Td>
              <Table.Td ta="right" data-label="Duration">
                {a.durationMs} ms
              </Table.Td>
              <Table.Td data-menu>
                <Group gap={6} wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="default"
                    onClick={() => setShown(a)}
                    aria-label={`Details of attempt ${a.attempt} of ${a.eventType}`}
                  >
                    Details
                  </Button>
                  <Button size="compact-sm" variant="light" onClick={() => setResending(a)} aria-label={`Resend ${a.eventType}`}>
                    Resend
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))
        }
      </ListCard>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title="Attempt" size="xl">
        {shown ? (
          <Stack gap="sm">
            <Text size="sm">
              {shown.eventType} · attempt {shown.attempt} · {formatDateTime(shown.at)} · {shown.url}
            </Text>
            <Text size="sm" fw={600}>
              Request body (webhook-id {shown.messageId})
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {JSON.stringify(JSON.parse(shown.requestBody), null, 2)}
            </Code>
            <Text size="sm" fw={600}>
              Answer {shown.responseStatus ?? ''}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {shown.error && shown.responseStatus === null ? shown.error : shown.responseBody || '(empty)'}
            </Code>
          </Stack>
        ) : null}
      </Modal>
      <ReasonDialog
        opened={resending !== null}
        title="Resend event"
        confirm="Resend"
        onClose={() => setResending(null)}
        onConfirm={async (reason) => {
          if (!resending) return undefined;
          const r = await resend({ id: endpointId, deliveryId: resending.deliveryId, reason });
          if ('error' in r) return r.error;
          notifications.show({
            color: 'green',
            title: 'Event queued again',
            message: `${resending.eventType} (${resending.messageId})`,
          });
          return undefined;
        }}
      >
        <Text size="sm">
          Sends {resending?.eventType} again with the same webhook-id, after this endpoint&apos;s other events about the same
          resource.
        </Text>
      </ReasonDialog>
    </PageFrame>
  );
}
