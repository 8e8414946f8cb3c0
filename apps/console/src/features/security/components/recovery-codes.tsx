import { Button, Code, CopyButton, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * Recovery codes, shown this once (the server keeps only their hashes): each signs in once in
 * place of the passkey or the app, for the day the phone or the laptop is lost.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Paper withBorder p="lg" role="region" aria-labelledby="recovery-codes-title">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4" id="recovery-codes-title">
            Save your recovery codes
          </Title>
          <Text size="sm" c="dimmed">
            Each code works once, in place of your passkey or authenticator app. They are shown only now: keep them in your
            password manager.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" aria-label="Recovery codes" p={0} m={0}>
          {codes.map((c) => (
            <Code key={c} component="li" fz="md" style={{ listStyle: 'none', textAlign: 'center' }}>
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Group justify="space-between">
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="default" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                {copied ? 'Copied' : 'Copy codes'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onDone}>I have saved my codes</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
