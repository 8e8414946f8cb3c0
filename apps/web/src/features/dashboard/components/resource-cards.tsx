import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconDisc, IconLifebuoy } from '@tabler/icons-react';
import { type DownloadInfo, type SupportInfo, formatBytes } from '@portal/contract';
import { Link } from 'react-router';
import { PAGES } from '../../../lib/pages';
import { DashboardCard, LoadableBody, type Loadable } from './dashboard-card';
import { errorMessage, errorStatus } from '@portal/ui';

const ICON = { size: 18, stroke: 1.7 } as const;

/** The support plan, how fast a critical problem is answered, and where to write. */
export function SupportCard({ support }: { support: Loadable<SupportInfo> }) {
  return (
    <DashboardCard
      icon={<IconLifebuoy {...ICON} />}
      title="Support"
      link={{ label: 'Contacts', to: PAGES.support.path }}
      footer={
        support.data?.plan === 'none' ? (
          <Text size="sm" c="dimmed">
            Every subscription includes standard support.
          </Text>
        ) : null
      }
    >
      <LoadableBody read={support} label="Loading support">
        {(info) => {
          const critical = info.responseTargets[0];
          const email = info.channels.find((c) => c.kind === 'email');
          return (
            <Stack gap={6}>
              <Text fw={600} size="lg" lh={1.3}>
                {info.planName}
              </Text>
              {critical ? (
                <Text size="sm">
                  {info.plan === 'none' ? 'Response time: ' : 'First answer to critical problems: '}
                  <strong>{critical.target}</strong>
                </Text>
              ) : null}
              {email ? (
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  E-mail{' '}
                  <Anchor href={`mailto:${email.value}`} inherit>
                    {email.value}
                  </Anchor>
                </Text>
              ) : null}
            </Stack>
          );
        }}
      </LoadableBody>
    </DashboardCard>
  );
}

/** The latest installer image: its version and size, and the way to the download page. */
export function DownloadCard({ download }: { download: Loadable<DownloadInfo> }) {
  const noRelease = !download.data && !download.isLoading && errorStatus(download.error) === 404;
  return (
    <DashboardCard
      icon={<IconDisc {...ICON} />}
      title="Latest ISO"
      link={{ label: 'Details', to: PAGES.downloadIso.path }}
      footer={
        download.data ? (
          <Button
            component={Link}
            to={PAGES.downloadIso.path}
            size="sm"
            variant="light"
            rightSection={<IconArrowRight size={16} />}
          >
            Go to the download
          </Button>
        ) : null
      }
    >
      {noRelease ? (
        <Stack gap={4}>
          <Text fw={600}>No release yet</Text>
          <Text size="sm" c="dimmed">
            {errorMessage(download.error)}
          </Text>
        </Stack>
      ) : (
        <LoadableBody read={download} label="Loading the latest ISO">
          {(info) => (
            <Stack gap={6}>
              <Text fw={600} size="lg" lh={1.3}>
                <Text span c="dimmed" fw={400} inherit>
                  Version{' '}
                </Text>
                <Text span inherit style={{ overflowWrap: 'anywhere' }}>
                  {info.version}
                </Text>
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                <Text span ff="monospace" inherit>
                  {info.filename}
                </Text>{' '}
                · {formatBytes(info.size)}
              </Text>
            </Stack>
          )}
        </LoadableBody>
      )}
    </DashboardCard>
  );
}
