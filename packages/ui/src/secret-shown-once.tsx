import { useId, type ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

export interface SecretShownOnceProps {
  /** The secret, shown this once. */
  secret: string;
  /** Names the secret, above it and as its accessible name (Token “CRM sync”, Signing secret). */
  label: ReactNode;
  /** The warning's title. */
  warningTitle?: ReactNode;
  /** The warning: copy it now, where to keep it, what to do when it is lost, what it allows. */
  warning: ReactNode;
  /** Below the secret: how it is used. */
  children?: ReactNode;
  onDone: () => void;
}

/**
 * A secret the server shows only this once (an API token, a signing secret): a warning, the secret
 * with a copy button, how it is used, and Done. Closing the dialog around it forgets it.
 */
export function SecretShownOnce({
  secret,
  label,
  warningTitle = 'This is the only time you see it',
  warning,
  children,
  onDone,
}: SecretShownOnceProps) {
  const labelId = useId();
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={warningTitle}>
        {warning}
      </Alert>
      {/* A block, not an input: an input's line box cut the underscore of `pat_` off in some fonts. */}
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          {label}
        </Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Code
            block
            role="textbox"
            aria-readonly="true"
            aria-multiline="true"
            tabIndex={0}
            aria-labelledby={labelId}
            style={{
              flex: 1,
              minWidth: 0,
              wordBreak: 'break-all',
              whiteSpace: 'pre-wrap',
              fontSize: 'var(--mantine-font-size-sm)',
            }}
          >
            {secret}
          </Code>
          <CopyButton value={secret} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'green' : undefined}
                onClick={copy}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                style={{ flexShrink: 0 }}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      {children ? (
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
