import { Text } from '@mantine/core';
import { errorMessage } from '../lib/api-error';

export interface ErrorDisplayProps {
  /** The `error` of an RTK Query hook result; nothing is shown when it is undefined or null. */
  error: unknown;
}

/** The one error display: a red 'Error: ' label followed by the server's message. */
export function ErrorDisplay({ error }: ErrorDisplayProps) {
  if (error === undefined || error === null) return null;
  return (
    <Text role="alert" size="sm">
      <Text component="span" c="red" fw={600} inherit>
        Error:{' '}
      </Text>
      {errorMessage(error)}
    </Text>
  );
}
