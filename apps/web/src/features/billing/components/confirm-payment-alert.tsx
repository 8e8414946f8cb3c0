import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ErrorDisplay } from '@portal/ui';

export interface ConfirmPaymentAlertProps {
  confirming: boolean;
  error: unknown;
  onConfirm: () => void;
}

/** The bank asks to confirm the first payment (3-D Secure): until then the subscription waits for it. */
export function ConfirmPaymentAlert({ confirming, error, onConfirm }: ConfirmPaymentAlertProps) {
  return (
    <Alert role="note" variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} title="Confirm this payment">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          Your bank asks you to confirm this payment. Until it is confirmed the subscription waits for its first payment.
        </Text>
        <ErrorDisplay error={error} />
        <Button size="xs" loading={confirming} onClick={onConfirm}>
          Confirm payment
        </Button>
      </Stack>
    </Alert>
  );
}
