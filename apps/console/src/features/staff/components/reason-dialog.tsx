import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { REASON_MAX_LENGTH } from '@portal/contract';
import { ErrorDisplay } from '@portal/ui';

export interface ReasonDialogProps {
  opened: boolean;
  title: string;
  /** What happens, in a sentence or two. */
  children: ReactNode;
  confirm: string;
  color?: string;
  /** Does the change with the reason; answers the failed call's error, or nothing when it worked. */
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

/** A staff change confirmed with its reason, as every staff action is (kept in the audit log). */
export function ReasonDialog({ opened, title, children, confirm, color, onConfirm, onClose }: ReasonDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {opened ? (
        <ReasonForm confirm={confirm} color={color} onConfirm={onConfirm} onClose={onClose}>
          {children}
        </ReasonForm>
      ) : null}
    </Modal>
  );
}

function ReasonForm({ children, confirm, color, onConfirm, onClose }: Omit<ReasonDialogProps, 'opened' | 'title'>) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim() === '') return setMissing(true);
        setBusy(true);
        void onConfirm(reason.trim()).then((err) => {
          setBusy(false);
          if (err) setError(err);
          else onClose();
        });
      }}
    >
      <Stack gap="md">
        {children}
        <Textarea
          label="Reason"
          description="Kept in the staff audit log."
          required
          data-autofocus
          autosize
          minRows={2}
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          error={missing && reason.trim() === '' ? 'Say why you are doing this' : undefined}
          onChange={(e) => setReason(e.currentTarget.value)}
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
