import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { errorMessage } from './api-error';

export interface ErrorDisplayProps {
  /** The `error` of an RTK Query hook result; nothing is shown when it is undefined or null. */
  error: unknown;
  /**
   * Fetches the data again (an RTK Query hook's `refetch`). Given wherever the failed request is a
   * read that can simply be repeated; left out for a mutation, whose form is the way to try again.
   */
  onRetry?: () => unknown;
  /** True while the retry is under way: the button shows it and cannot be pressed twice. */
  retrying?: boolean;
}

/**
 * The one error display: a red 'Error: ' label followed by the server's message (or what to do when
 * the portal could not be reached), in an alert box, with a Retry button when the read can be repeated.
 */
export function ErrorDisplay({ error, onRetry, retrying = false }: ErrorDisplayProps) {
  if (error === undefined || error === null) return null;
  return (
    <Alert
      role="alert"
      color="red"
      variant="light"
      radius="md"
      py="sm"
      icon={<IconAlertCircle size={18} stroke={1.8} />}
      styles={{ wrapper: { alignItems: 'center' }, body: { justifyContent: 'center' } }}
    >
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <Text size="sm" style={{ flex: '1 1 200px', minWidth: 0, overflowWrap: 'anywhere' }}>
          <Text component="span" c="red" fw={600} inherit>
            Error:{' '}
          </Text>
          {errorMessage(error)}
        </Text>
        {onRetry ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={retrying}
            onClick={() => void onRetry()}
          >
            Retry
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
