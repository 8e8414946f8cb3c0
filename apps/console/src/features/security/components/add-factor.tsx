import { useState } from 'react';
import { Anchor, Button, Code, CopyButton, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconDeviceMobile, IconFingerprint } from '@tabler/icons-react';
import { startRegistration } from '@simplewebauthn/browser';
import type { AddFactorResponse, TotpEnrollment } from '@portal/contract';
import {
  useAddPasskeyMutation,
  useAddTotpMutation,
  useStartPasskeyRegistrationMutation,
  useStartTotpEnrollmentMutation,
} from '../api';
import { ErrorDisplay } from '@portal/ui';

/** A browser's WebAuthn refusal (cancelled, timed out) in the error display's shape. */
export const browserError = (e: unknown) => ({
  data: {
    message:
      e instanceof Error && e.name === 'NotAllowedError'
        ? 'The passkey request was cancelled or timed out. Try again.'
        : `Your browser could not use a passkey${e instanceof Error ? `: ${e.message}` : ''}.`,
  },
});

/** Adds a passkey: the browser (or the phone, or a security key) creates it for this console. */
function AddPasskey({ onAdded }: { onAdded: (r: AddFactorResponse) => void }) {
  const [label, setLabel] = useState('Passkey');
  const [start] = useStartPasskeyRegistrationMutation();
  const [add] = useAddPasskeyMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const options = await start();
      if ('error' in options) return setError(options.error);
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.data });
      } catch (e) {
        return setError(browserError(e));
      }
      const added = await add({ label: label.trim() || 'Passkey', response: { ...response } });
      if ('error' in added) return setError(added.error);
      onAdded(added.data);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" role="region" aria-labelledby="add-passkey-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconFingerprint size={20} stroke={1.6} aria-hidden />
          <Title order={3} size="h5" id="add-passkey-title">
            Passkey
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          Your fingerprint, face or screen lock on this device, a phone nearby, or a security key. The strongest choice.
        </Text>
        <TextInput label="Passkey name" value={label} onChange={(e) => setLabel(e.currentTarget.value)} maxLength={60} />
        <ErrorDisplay error={error} />
        <Button onClick={() => void run()} loading={busy} leftSection={<IconFingerprint size={16} />}>
          Add a passkey
        </Button>
      </Stack>
    </Paper>
  );
}

/** Adds an authenticator app: the secret shown once, then one of its codes confirms it. */
function AddTotp({ onAdded }: { onAdded: (r: AddFactorResponse) => void }) {
  const [start, startState] = useStartTotpEnrollmentMutation();
  const [add, addState] = useAddTotpMutation();
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [label, setLabel] = useState('Authenticator app');
  const [code, setCode] = useState('');
  const begin = async () => {
    const r = await start();
    if ('data' in r && r.data) setEnrollment(r.data);
  };
  const confirm = async () => {
    const r = await add({ label: label.trim() || 'Authenticator app', code: code.trim() });
    if ('data' in r && r.data) onAdded(r.data);
  };
  return (
    <Paper withBorder p="md" role="region" aria-labelledby="add-totp-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconDeviceMobile size={20} stroke={1.6} aria-hidden />
          <Title order={3} size="h5" id="add-totp-title">
            Authenticator app
          </Title>
        </Group>
        {!enrollment ? (
          <>
            <Text size="sm" c="dimmed">
              A six-digit code from an app such as 1Password, Google Authenticator or Authy.
            </Text>
            <ErrorDisplay error={startState.error} />
            <Button variant="default" onClick={() => void begin()} loading={startState.isLoading}>
              Set up an authenticator app
            </Button>
          </>
        ) : (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void confirm();
            }}
          >
            <Stack gap="sm">
              <Text size="sm">
                In your app, add an account with this setup key (or{' '}
                <Anchor href={enrollment.uri} size="sm">
                  open it in the app
                </Anchor>{' '}
                on this device), then enter the code it shows.
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code fz="sm" style={{ wordBreak: 'break-all' }} aria-label="Setup key">
                  {enrollment.secret}
                </Code>
                <CopyButton value={enrollment.secret}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={copy}
                      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <TextInput label="App name" value={label} onChange={(e) => setLabel(e.currentTarget.value)} maxLength={60} />
              <TextInput
                label="Code from the app"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <ErrorDisplay error={addState.error} />
              <Button type="submit" loading={addState.isLoading}>
                Confirm code
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}

/** The two kinds of second factor: what the Security page (side by side when wide) and the set-up step offer. */
export function AddFactor({ onAdded, wide = false }: { onAdded: (r: AddFactorResponse) => void; wide?: boolean }) {
  return (
    <SimpleGrid cols={{ base: 1, md: wide ? 2 : 1 }} spacing="md" style={{ alignItems: 'start' }}>
      <AddPasskey onAdded={onAdded} />
      <AddTotp onAdded={onAdded} />
    </SimpleGrid>
  );
}
