import { useState, type ReactNode } from 'react';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { REASON_MAX_LENGTH } from '@portal/contract';
import { ErrorDisplay } from '@portal/ui';

/**
 * The reason every staff change is confirmed with (kept in the staff audit log), and the change's
 * own fields above it. `onConfirm` answers the failed call's error, or nothing when it worked.
 */
export function ReasonForm({
  children,
  confirm,
  color,
  onConfirm,
  onClose,
}: {
  children?: ReactNode;
  confirm: string;
  color?: string;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === '') {
          setMissing(true);
          return;
        }
        setBusy(true);
        void onConfirm(reason.trim()).then((err) => {
          setBusy(false);
          if (err) setError(err);
        });
      }}
    >
      <Stack gap="md">
        {children}
        <Textarea
          label="Reason"
          description="Kept in the staff audit log."
          required
          autosize
          minRows={2}
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          error={missing ? 'Enter a reason' : undefined}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setMissing(false);
          }}
        />
        <ErrorDisplay error={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" color={color} loading={busy}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
