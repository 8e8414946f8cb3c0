import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A signing secret, shown this once: copy it now, the console never shows it again. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="yellow" title="Copy the signing secret now">
        It is shown only this once. Your receiver verifies every request with it, with any Standard Webhooks library.
      </Alert>
      <Code block aria-label="Signing secret" style={{ wordBreak: 'break-all' }}>
        {secret}
      </Code>
      <Group justify="space-between">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy secret'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
      <Text size="xs" c="dimmed">
        Lost it? Rotate the secret: a new one is shown, and the old one keeps signing for the overlap you choose.
      </Text>
    </Stack>
  );
}
