import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { LicenseNode } from '@portal/contract';
import { useOpenAbove } from '../../../components/overlay-above';
import { track } from '../../../lib/analytics';
import { useReleaseNodeMutation } from '../api';
import { ErrorDisplay, licenseTextClasses } from '@portal/ui';

export interface ReleaseNodeModalProps {
  licenseKey: string;
  /** The node to release (kept while the modal closes, so its text stays during the transition). */
  node: LicenseNode | null;
  opened: boolean;
  onClose: () => void;
}

export const nodeName = (node: Pick<LicenseNode, 'hostname' | 'fingerprint'>) => node.hostname || node.fingerprint;

/**
 * Asks before releasing a node: the machine leaves the license at once and fails validation until it
 * is activated again. A Mantine modal of its own (above the license drawer), not the app's modal host.
 */
export function ReleaseNodeModal({ licenseKey, node, opened, onClose }: ReleaseNodeModalProps) {
  const [release, { isLoading, error, reset }] = useReleaseNodeMutation();
  useOpenAbove(opened && node !== null);

  const close = () => {
    reset();
    onClose();
  };

  const confirm = async () => {
    if (!node) return;
    const result = await release({ licenseKey, id: node.id });
    if ('error' in result) return;
    track('license_node_released');
    notifications.show({
      color: 'green',
      title: 'Node released',
      message: `${nodeName(node)} is no longer activated on this license.`,
    });
    close();
  };

  return (
    <Modal
      opened={opened && node !== null}
      onClose={close}
      title="Release this node?"
      // Above the license drawer it opens from.
      zIndex={400}
    >
      {node ? (
        <Stack gap="md">
          <Text size="sm">
            <Text component="span" fw={600} inherit>
              {node.hostname || 'This node'}
            </Text>{' '}
            (fingerprint{' '}
            <Text component="span" inherit className={licenseTextClasses.key}>
              {node.fingerprint}
            </Text>
            ) leaves this license at once, which frees one of its nodes.
          </Text>
          <Text size="sm" c="dimmed">
            The machine fails validation from now on. It can be activated again later while the license has a node free.
          </Text>
          <ErrorDisplay error={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={isLoading}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={isLoading}>
              Release node
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
