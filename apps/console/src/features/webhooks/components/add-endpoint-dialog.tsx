import { useState } from 'react';
import { Modal, MultiSelect, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { WEBHOOK_EVENT_TYPES, WebhookUrlSchema, type WebhookEventType } from '@portal/contract';
import { useCreateWebhookEndpointMutation } from '../api';
import { ReasonForm } from '../../../components/reason-dialog';
import { SecretOnce } from './secret-once';

/** Owners add an endpoint: its URL, the events it wants (none chosen: all), a description; then its secret, once. */
export function AddEndpointDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={secret ? 'Endpoint added' : 'Add webhook endpoint'} size="lg">
      {!opened ? null : secret ? (
        <SecretOnce secret={secret} onDone={close} />
      ) : (
        <AddEndpointForm onAdded={setSecret} onClose={close} />
      )}
    </Modal>
  );
}

function AddEndpointForm({ onAdded, onClose }: { onAdded: (secret: string) => void; onClose: () => void }) {
  const [create] = useCreateWebhookEndpointMutation();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [eventTypes, setEventTypes] = useState<WebhookEventType[]>([]);
  const [urlError, setUrlError] = useState<string | undefined>();
  return (
    <ReasonForm
      confirm="Add endpoint"
      onClose={onClose}
      onConfirm={async (reason) => {
        const checked = WebhookUrlSchema.safeParse(url.trim());
        if (!checked.success) {
          setUrlError(checked.error.issues[0]?.message);
          return undefined;
        }
        const result = await create({ url: url.trim(), description, eventTypes, reason });
        if ('error' in result) return result.error;
        notifications.show({ color: 'green', title: 'Endpoint added', message: `Events will go to ${url.trim()}.` });
        onAdded(result.data.secret);
        return undefined;
      }}
    >
      <TextInput
        label="URL"
        placeholder="https://crm.example.com/hooks/portal"
        required
        data-autofocus
        value={url}
        error={urlError}
        onChange={(e) => {
          setUrl(e.currentTarget.value);
          setUrlError(undefined);
        }}
      />
      <TextInput
        label="Description"
        value={description}
        maxLength={500}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
      <MultiSelect
        label="Events"
        description="None chosen: every event, including ones added later."
        placeholder={eventTypes.length === 0 ? 'All events' : undefined}
        data={[...WEBHOOK_EVENT_TYPES]}
        value={eventTypes}
        onChange={(v) => setEventTypes(v as WebhookEventType[])}
        searchable
        clearable
      />
    </ReasonForm>
  );
}
