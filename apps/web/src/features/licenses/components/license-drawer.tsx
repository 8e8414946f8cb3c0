import { useState } from 'react';
import { Alert, Anchor, Button, Drawer, Group, Paper, SimpleGrid, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconFileDownload, IconPlus, IconShieldCheck } from '@tabler/icons-react';
import { type License, formatDate } from '@portal/contract';
import { Link } from 'react-router';
import { useOverlayAbove } from '../../../components/overlay-above';
import { track } from '../../../lib/analytics';
import { VendorQuote } from '../../../components/vendor-quote';
import { SUSPENSION_MESSAGE_LABEL } from '../../../lib/attention';
import { PAGES } from '../../../lib/pages';
import { useDownloadLicenseFileMutation } from '../api';
import { ActivateNodeForm } from './activate-node-form';
import { ActivationHelp } from './activation-help';
import { NodesSection } from './nodes-table';
import { ValidatePanel } from './validate-panel';
import { ErrorDisplay, ExpiryText, LicenseKeyText, NodesUsage, LicenseStatusBadge as StatusBadge } from '@portal/ui';

type Panel = 'activate' | 'validate' | null;

/** Saves text as a file through a temporary link (the file arrived with the session's cookie). */
function saveFile(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: the browser reads the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function InactiveNotice({ license }: { license: License }) {
  if (license.status === 'active') return null;
  if (license.status === 'expired') {
    return (
      <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} title="This license has expired">
        It ended on {formatDate(license.expiresAt)}: its nodes fail validation and no node can be activated. Renew the
        subscription in{' '}
        <Anchor component={Link} to={PAGES.billing.path} inherit>
          Billing
        </Anchor>{' '}
        to use it again.
      </Alert>
    );
  }
  return (
    <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} title="This license is suspended">
      <Stack gap="xs">
        <div>
          Its nodes fail validation and no node can be activated. If you think this is a mistake,{' '}
          <Anchor component={Link} to={PAGES.support.path} inherit>
            contact support
          </Anchor>
          .
        </div>
        {license.suspensionMessage ? <VendorQuote label={SUSPENSION_MESSAGE_LABEL} text={license.suspensionMessage} /> : null}
      </Stack>
    </Alert>
  );
}

const CRAMPED_QUERY = '(max-width: 67.99em)';

function LicenseDetail({ license, compact, nodesAsCards }: { license: License; compact: boolean; nodesAsCards: boolean }) {
  const { licenseKey } = license;
  const [panel, setPanel] = useState<Panel>(null);
  const [download, { isLoading: downloading, error: downloadError }] = useDownloadLicenseFileMutation();
  const toggle = (next: Exclude<Panel, null>) => setPanel((p) => (p === next ? null : next));

  const onDownload = async () => {
    const result = await download({ licenseKey });
    if ('error' in result) return;
    saveFile(result.data.filename, result.data.text);
    track('license_file_downloaded');
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="md">
        <Stack gap="md">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <LicenseKeyText licenseKey={licenseKey} size={compact ? 'sm' : 'md'} />
            <StatusBadge status={license.status} />
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg" verticalSpacing="md">
            <NodesUsage activeNodes={license.activeNodes} maxNodes={license.maxNodes} wide />
            <ExpiryText license={license} />
          </SimpleGrid>
          <InactiveNotice license={license} />
          <Group gap="sm" wrap="wrap">
            <Button
              leftSection={<IconPlus size={16} />}
              variant={panel === 'activate' ? 'filled' : 'light'}
              aria-expanded={panel === 'activate'}
              aria-controls="license-panel-activate"
              onClick={() => toggle('activate')}
            >
              Activate node
            </Button>
            <Button
              leftSection={<IconShieldCheck size={16} />}
              variant={panel === 'validate' ? 'filled' : 'light'}
              aria-expanded={panel === 'validate'}
              aria-controls="license-panel-validate"
              onClick={() => toggle('validate')}
            >
              Validate
            </Button>
            <Button
              leftSection={<IconFileDownload size={16} />}
              variant="default"
              loading={downloading}
              onClick={() => void onDownload()}
            >
              Download license file
            </Button>
          </Group>
          <ErrorDisplay error={downloadError} />
        </Stack>
      </Paper>
      {panel === 'activate' ? (
        <div id="license-panel-activate">
          <ActivateNodeForm licenseKey={licenseKey} onCancel={() => setPanel(null)} />
        </div>
      ) : null}
      {panel === 'validate' ? (
        <div id="license-panel-validate">
          <ValidatePanel licenseKey={licenseKey} onClose={() => setPanel(null)} />
        </div>
      ) : null}
      <NodesSection licenseKey={licenseKey} compact={nodesAsCards} />
      <ActivationHelp licenseKey={licenseKey} />
    </Stack>
  );
}

export interface LicenseDrawerProps {
  /** The license shown; kept by the caller while the drawer closes. */
  license: License | null;
  opened: boolean;
  onClose: () => void;
  /** Full width, cards instead of tables (phones). */
  compact: boolean;
}

/** One license: its figures, the actions on it (activate, validate, license file), its nodes, and (folded) how nodes activate. */
export function LicenseDrawer({ license, opened, onClose, compact }: LicenseDrawerProps) {
  // The nodes table needs about 60 rem; narrower windows (tablets) list the nodes as cards.
  const cramped = useMediaQuery(CRAMPED_QUERY, false, { getInitialValueInEffect: false });
  // Escape on the 'Release this node?' confirmation closes it, not the drawer beneath as well.
  const { above, OverlayAboveProvider } = useOverlayAbove();
  return (
    <Drawer
      opened={opened && license !== null}
      onClose={onClose}
      closeOnEscape={!above}
      position="right"
      // Roomy on a desktop: the nodes table fits without scrolling sideways (1,040 px, or the
      // window less a margin that keeps the page in sight); the whole width on a phone.
      size={compact ? '100%' : 'min(65rem, calc(100vw - 4rem))'}
      padding={compact ? 'md' : 'xl'}
      title="License details"
      closeButtonProps={{ 'aria-label': 'Close license details' }}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
      overlayProps={{ backgroundOpacity: 0.35, blur: 2 }}
    >
      <OverlayAboveProvider>
        {license ? (
          <LicenseDetail key={license.licenseKey} license={license} compact={compact} nodesAsCards={compact || cramped} />
        ) : null}
      </OverlayAboveProvider>
    </Drawer>
  );
}
