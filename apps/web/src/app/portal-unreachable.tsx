import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { isSessionUnreachable, loadSession, subscribeSessionCheck } from '../features/auth/session';
import { useGetConfigQuery } from '../lib/api';
import { useAppDispatch } from '../lib/state/hooks';
import { CenteredPage } from '@portal/ui';

/** Automatic retries of the session check: 2 s, then doubling up to 30 s between tries. */
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 30_000;

/** True while the session check could not reach the portal (features/auth/session.ts). */
export function useSessionUnreachable(): boolean {
  return useSyncExternalStore(subscribeSessionCheck, isSessionUnreachable);
}

/**
 * Shown instead of the pages while the start-up session check gets no answer (a 5xx, no network):
 * the visitor is neither signed in nor signed out yet. Retries on its own, and on Try again.
 */
export function PortalUnreachable() {
  const dispatch = useAppDispatch();
  const { data: config } = useGetConfigQuery();
  const [checking, setChecking] = useState(false);
  const [tries, setTries] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus on the heading (not a control: no ring) so that screen readers announce it.
  useEffect(() => heading.current?.focus(), []);

  const retry = useCallback(async () => {
    setChecking(true);
    await dispatch(loadSession());
    // Still here (unmounted otherwise): the next automatic try waits longer.
    setChecking(false);
    setTries((n) => n + 1);
  }, [dispatch]);

  useEffect(() => {
    if (checking) return;
    const timer = setTimeout(() => void retry(), Math.min(FIRST_RETRY_MS * 2 ** tries, MAX_RETRY_MS));
    return () => clearTimeout(timer);
  }, [checking, retry, tries]);

  return (
    <CenteredPage brandName={config?.brandName} width={480}>
      <Paper withBorder p="xl" role="alert">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
            <IconPlugConnectedX size={26} stroke={1.6} />
          </ThemeIcon>
          <Title order={1} size="h3" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
            The portal could not be reached
          </Title>
          <Text c="dimmed" style={{ textWrap: 'pretty' }}>
            This is usually brief. We keep trying; you can also try again now.
          </Text>
          <Button loading={checking} onClick={() => void retry()}>
            Try again
          </Button>
        </Stack>
      </Paper>
    </CenteredPage>
  );
}
