import { useEffect, useRef, useState } from 'react';
import { Anchor, Button, Code, DataList, Group, List, Paper, Skeleton, Stack, Text, useMatches } from '@mantine/core';
import { IconDisc, IconDownload, IconExternalLink, IconListCheck, IconRefresh, IconTerminal2 } from '@tabler/icons-react';
import { type DownloadInfo, formatBytes, formatDateTime, formatRelative } from '@portal/contract';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useGetDownloadQuery, useLazyGetDownloadQuery } from '../api';
import { latestLink, refreshDelay, terminalCommands } from '../download-display';
import { CopyAction } from './copy-action';
import classes from './downloads.module.css';
import {
  EmptyState,
  CardHeader,
  ErrorDisplay,
  SectionCard,
  SkeletonCard,
  SkeletonHeading,
  SkeletonRows,
  StatusBadge,
  errorMessage,
  errorStatus,
} from '@portal/ui';

/** However often a link expires (a skewed clock, say), refresh it by itself at most this often. */
const MIN_AUTO_REFRESH_GAP_MS = 30_000;
/** Longest delay setTimeout accepts. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The current time, updated every `everyMs`: keeps "expires in 12 minutes" true. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

/** /app/download-iso */
export function DownloadIsoPage() {
  const base = useGetDownloadQuery();
  const [refresh, fresh] = useLazyGetDownloadQuery();
  const info = latestLink(base.data, fresh.data);
  const lastAutoRefresh = useRef<number | null>(null);

  // A link is signed for a limited time: when it expires, ask for a new one without being asked.
  const expiresAt = info?.expiresAt;
  useEffect(() => {
    if (!expiresAt) return;
    const delay = refreshDelay(expiresAt, Date.now(), lastAutoRefresh.current, MIN_AUTO_REFRESH_GAP_MS);
    const id = setTimeout(
      () => {
        lastAutoRefresh.current = Date.now();
        void refresh({ refresh: true });
      },
      Math.min(delay, MAX_TIMEOUT_MS),
    );
    return () => clearTimeout(id);
  }, [expiresAt, refresh]);

  return (
    <PageFrame title={PAGES.downloadIso.title} description="The installer image of the product, with its version and checksum.">
      {info ? (
        <DownloadDetails
          info={info}
          renewing={fresh.isFetching}
          renewError={fresh.isError ? fresh.error : undefined}
          onNewLink={() => void refresh({ refresh: true })}
        />
      ) : base.isLoading ? (
        <DownloadSkeleton />
      ) : base.isError ? (
        errorStatus(base.error) === 404 ? (
          <EmptyState
            icon={<IconDisc size={28} stroke={1.6} />}
            title="No release to download yet"
            description={errorMessage(base.error)}
            action={
              <Button component={Link} to={PAGES.support.path} variant="light">
                Contact support
              </Button>
            }
          />
        ) : (
          <ErrorDisplay error={base.error} onRetry={base.refetch} retrying={base.isFetching} />
        )
      ) : null}
    </PageFrame>
  );
}

interface DownloadDetailsProps {
  info: DownloadInfo;
  renewing: boolean;
  renewError: unknown;
  onNewLink: () => void;
}

function DownloadDetails({ info, renewing, renewError, onNewLink }: DownloadDetailsProps) {
  const now = useNow(15_000);
  const expires = new Date(info.expiresAt);
  const expired = expires.getTime() <= now;
  const commands = terminalCommands(info);
  // Labels beside their values where there is room, above them on phones.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });

  return (
    <Stack gap="lg">
      <SectionCard
        gap="lg"
        icon={<IconDisc size={18} stroke={1.7} />}
        title="Installer ISO"
        description="The newest release. Install it on each machine, then activate the machine with your license key."
        action={<StatusBadge tone="info">{`Version ${info.version}`}</StatusBadge>}
      >
        <DataList labelWidth={150} withDivider orientation={orientation}>
          <DataList.Item>
            <DataList.ItemLabel>File</DataList.ItemLabel>
            <DataList.ItemValue>
              <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {info.filename}
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Size</DataList.ItemLabel>
            <DataList.ItemValue>
              {/* The exact size is written out: a tooltip would need a focusable span to reach keyboards. */}
              <Text size="sm">
                {formatBytes(info.size)}{' '}
                <Text span c="dimmed" inherit>
                  ({new Intl.NumberFormat().format(info.size)} bytes)
                </Text>
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>SHA-256 checksum</DataList.ItemLabel>
            <DataList.ItemValue>
              <Group gap={4} wrap="nowrap">
                <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="sha256">
                  {info.sha256}
                </Text>
                <CopyAction value={info.sha256} label="Copy checksum" />
              </Group>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Link expires</DataList.ItemLabel>
            <DataList.ItemValue>
              <Text size="sm" c={expired ? 'red' : undefined}>
                {expired ? 'Expired, getting a new link…' : formatRelative(expires, new Date(now))}{' '}
                <Text span c="dimmed" inherit>
                  ({formatDateTime(expires)})
                </Text>
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>

        <Stack gap="xs">
          <Group gap="sm">
            {/* `disabled` means nothing on a link: an expired one loses its address and its tab stop,
                  keeps the link role for screen readers ('dimmed'), and looks disabled. */}
            <Button
              component="a"
              size="md"
              leftSection={<IconDownload size={18} />}
              {...(expired
                ? { role: 'link', 'aria-disabled': true, tabIndex: -1, 'data-disabled': true }
                : { href: info.url, download: info.filename })}
            >
              Download ISO ({formatBytes(info.size)})
            </Button>
            <Button variant="default" size="md" leftSection={<IconRefresh size={18} />} loading={renewing} onClick={onNewLink}>
              New link
            </Button>
            {info.releaseNotesUrl ? (
              <Anchor href={info.releaseNotesUrl} target="_blank" rel="noopener noreferrer" size="sm">
                <Group gap={4} wrap="nowrap" component="span">
                  Release notes
                  <IconExternalLink size={14} aria-hidden />
                </Group>
              </Anchor>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            The link is personal and works without signing in, from a browser or a download manager, until it expires. A new link
            is issued by itself when this one expires.
          </Text>
          <ErrorDisplay error={renewError} />
        </Stack>
      </SectionCard>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm">
          <CardHeader icon={<IconTerminal2 size={18} stroke={1.7} />} title="Download from a terminal" />
          <Text size="sm" c="dimmed">
            On a server without a browser: the first line downloads the file (and resumes an interrupted download), the second
            checks it against the checksum and prints <Code>OK</Code>.
          </Text>
          {/* One line per command, never broken inside a URL or the checksum (scrolled sideways on a
              phone), with the copy button in a bar right above them. */}
          <div className={classes.commandBox}>
            <div className={classes.commandBar}>
              <Text size="xs" c="dimmed" ff="monospace">
                shell
              </Text>
              <CopyAction value={commands} label="Copy commands" />
            </div>
            <Code block className={classes.command} aria-label="Terminal commands" tabIndex={0}>
              {commands}
            </Code>
          </div>
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm">
          <CardHeader icon={<IconListCheck size={18} stroke={1.7} />} title="After the download" />
          <List type="ordered" spacing="xs" size="sm">
            <List.Item>Check the file against the SHA-256 checksum above; do not install a file that does not match.</List.Item>
            <List.Item>Write the ISO to a USB stick or mount it in your hypervisor, and install it on each machine.</List.Item>
            <List.Item>
              Activate each machine with your license key; the{' '}
              <Anchor component={Link} to={PAGES.licenses.path} inherit>
                Licenses
              </Anchor>{' '}
              page shows the keys and the machines that use them.
            </List.Item>
          </List>
        </Stack>
      </Paper>
    </Stack>
  );
}

function DownloadSkeleton() {
  return (
    <SkeletonCard label="Loading the download" gap="lg">
      <SkeletonHeading size="lg" />
      <SkeletonRows count={4} height={12} />
      <Group gap="sm">
        <Skeleton height={42} width={220} />
        <Skeleton height={42} width={120} />
      </Group>
    </SkeletonCard>
  );
}
