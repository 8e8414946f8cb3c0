import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Textarea, type TextareaProps } from '@mantine/core';
import { REASON_MAX_LENGTH } from '@portal/contract';
import { ErrorDisplay } from '@portal/ui';

/** The reason every staff change needs, kept in the staff audit log. */
export function ReasonField(props: TextareaProps) {
  return (
    <Textarea
      label="Reason"
      description="Kept in the staff audit log."
      required
      autosize
      minRows={2}
      maxLength={REASON_MAX_LENGTH}
      {...props}
    />
  );
}

export interface ReasonFormProps {
  /** What happens, in a sentence or two, and the change's own fields: above the reason. */
  children?: ReactNode;
  confirm: string;
  color?: string;
  /** Does the change with the reason; answers the failed call's error, or nothing when it worked. */
  onConfirm: (reason: string) => Promise<unknown>;
  /** After the change worked (a dialog closes; one that shows a secret next does not pass it). */
  onDone?: () => void;
  onClose: () => void;
}

/** A staff change confirmed with its reason, as every staff action is (kept in the audit log). */
export function ReasonForm({ children, confirm, color, onConfirm, onDone, onClose }: ReasonFormProps) {
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
          else onDone?.();
        });
      }}
    >
      <Stack gap="md">
        {children}
        {/* The dialog focuses the first field marked so: the change's own, when it has one above. */}
        <ReasonField
          data-autofocus
          value={reason}
          error={missing ? 'Say why you are doing this' : undefined}
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

export interface ReasonDialogProps extends Omit<ReasonFormProps, 'onDone'> {
  opened: boolean;
  title: string;
}

/** A ReasonForm in its own dialog, which closes once the change worked. */
export function ReasonDialog({ opened, title, onClose, ...form }: ReasonDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {opened ? <ReasonForm {...form} onClose={onClose} onDone={onClose} /> : null}
    </Modal>
  );
}
