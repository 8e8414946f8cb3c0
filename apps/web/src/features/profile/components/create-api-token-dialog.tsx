import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  CreateApiTokenBodySchema,
  type CreatedApiToken,
} from '@portal/contract';
import { useCreateApiTokenMutation } from '../api';
import { ErrorDisplay, SecretShownOnce, useSchemaForm } from '@portal/ui';

type Values = { name: string; scopes: string[]; expiry: string };
const INITIAL: Values = { name: '', scopes: [], expiry: '90' };
const EXPIRY_OPTIONS = [
  ...API_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: `${d} days` })),
  { value: 'never', label: 'Never' },
];

const toInput = (v: Values) => ({
  name: v.name,
  scopes: v.scopes,
  expiresInDays: v.expiry === 'never' ? null : Number(v.expiry),
});

/**
 * Creating a token: name, scopes and lifetime; then, in the same dialog, the secret, shown this
 * once with a copy button. Closing the dialog forgets it.
 */
export function CreateApiTokenDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [create, creation] = useCreateApiTokenMutation();
  const form = useSchemaForm({ schema: CreateApiTokenBodySchema, initialValues: INITIAL, toInput });

  const close = () => {
    if (creation.isLoading) return;
    setCreated(null);
    form.reset(INITIAL);
    creation.reset();
    onClose();
  };

  const onSubmit = form.onSubmit(async (body) => {
    const result = await create(body);
    if ('error' in result) return form.showServerIssues(result.error);
    setCreated(result.data);
  });

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy your new API token' : 'Create an API token'} size="lg">
      {created ? (
        <SecretShownOnce
          secret={created.secret}
          label={`Token “${created.token.name}”`}
          warning={
            <>
              Copy the token now and keep it somewhere safe, such as your pipeline&apos;s secret store. It is not shown again; if
              you lose it, revoke it and create another. Anyone who has it can act with its scopes.
            </>
          }
          onDone={close}
        >
          Send it as <code>Authorization: Bearer …</code> to this portal&apos;s API (reference:{' '}
          <Anchor href="/api/docs" target="_blank" rel="noopener">
            /api/docs
          </Anchor>
          ). Calls outside its scopes answer 403.
        </SecretShownOnce>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Create an API token">
          <Stack gap="md">
            <TextInput
              data-autofocus
              label="Name"
              description="Where the token is used, so you can tell tokens apart (for example: image pipeline)."
              maxLength={API_TOKEN_NAME_MAX_LENGTH}
              required
              {...form.field('name')}
            />
            <Checkbox.Group
              label="Scopes"
              description="What the token may do. Cards, your account and tokens are never reachable with a token."
              required
              {...form.field('scopes')}
            >
              <Stack gap="sm" mt="xs">
                {API_TOKEN_SCOPES.map((scope) => (
                  <Checkbox
                    key={scope}
                    value={scope}
                    label={
                      <>
                        {API_TOKEN_SCOPE_LABELS[scope].label}{' '}
                        <Text span ff="monospace" size="xs" c="dimmed">
                          {scope}
                        </Text>
                      </>
                    }
                    description={API_TOKEN_SCOPE_LABELS[scope].description}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
            <Select
              label="Expires"
              description="A token that expires answers 401 afterwards; create a new one then."
              data={EXPIRY_OPTIONS}
              allowDeselect={false}
              {...form.field('expiry')}
            />
            <ErrorDisplay error={creation.error} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={creation.isLoading}>
                Cancel
              </Button>
              <Button type="submit" loading={creation.isLoading}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
