import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export interface CopyActionProps {
  /** The text put on the clipboard. */
  value: string;
  /** What the button copies, as its accessible name and tooltip ('Copy checksum'). */
  label: string;
}

/** A small copy button with a tooltip that turns into a check mark once copied. */
export function CopyAction({ value, label }: CopyActionProps) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label}>
          <ActionIcon
            variant="subtle"
            color={copied ? 'green' : 'gray'}
            onClick={copy}
            aria-label={copied ? 'Copied' : label}
            size="lg"
          >
            {copied ? <IconCheck size={18} stroke={1.8} /> : <IconCopy size={18} stroke={1.6} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
