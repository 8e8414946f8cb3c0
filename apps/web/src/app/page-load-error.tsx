import { useEffect, useRef, useState } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCloudOff, IconAlertTriangle } from '@tabler/icons-react';
import { useGetConfigQuery } from '../lib/api';
import { CenteredPage } from '@portal/ui';

export interface PageLoadErrorProps {
  /** True when the page's code could not be downloaded (offline, or replaced by a deploy). */
  network: boolean;
  onRetry: () => void;
}

/**
 * The portal's own screen for a page that could not be shown: what happened in words, and a
 * Try again button (the heading takes focus so that screen readers announce it).
 */
export function PageLoadError({ network, onRetry }: PageLoadErrorProps) {
  const { data: config } = useGetConfigQuery();
  const heading = useRef<HTMLHeadingElement>(null);
  const [retrying, setRetrying] = useState(false);
  // Focus on the heading (not a control: no ring) so that screen readers announce it.
  useEffect(() => heading.current?.focus(), []);

  return (
    <CenteredPage brandName={config?.brandName} width={480}>
      <Paper withBorder p="xl" role="alert">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" color={network ? 'gray' : 'red'} aria-hidden>
            {network ? <IconCloudOff size={26} stroke={1.6} /> : <IconAlertTriangle size={26} stroke={1.6} />}
          </ThemeIcon>
          <Title order={1} size="h3" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
            {network ? 'This page could not be loaded' : 'Something went wrong on this page'}
          </Title>
          <Text c="dimmed" style={{ textWrap: 'pretty' }}>
            {network
              ? 'The connection to the portal was interrupted. Check your connection, then try again.'
              : 'An unexpected error stopped this page. Trying again usually helps; your data is safe.'}
          </Text>
          <Button
            loading={retrying}
            onClick={() => {
              setRetrying(true);
              onRetry();
            }}
          >
            Try again
          </Button>
        </Stack>
      </Paper>
    </CenteredPage>
  );
}
