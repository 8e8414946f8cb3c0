import { Anchor, Text } from '@mantine/core';
import { DEFAULT_LANDING } from '@portal/contract';
import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useGetConfigQuery } from '../../lib/api';
import { useAppSelector } from '../../lib/state/hooks';
import { useSafePath } from '../../lib/safe-path';
import { CenteredPage } from '@portal/ui';

/**
 * Guest-only pages (/login, /signup): a centred logo above the content. Nothing while the
 * session check runs; a signed-in visitor goes on to `?to=` (a same-origin path) or the dashboard.
 * Nothing either while the settings load (requested beside the session check, so this rarely
 * waits): the brand name and the documentation link below would move the centred column when
 * they arrive (docs/decisions/038). A failed read shows the page without them.
 */
export function PublicLayout() {
  const { checkingAuth, authenticated } = useAppSelector((s) => s.user);
  const [params] = useSearchParams();
  const { data: config, isLoading: loadingConfig } = useGetConfigQuery();
  const to = useSafePath(params.get('to'));

  if (checkingAuth) return null;
  if (authenticated) return to === undefined ? null : <Navigate to={to ?? DEFAULT_LANDING} replace />;
  if (loadingConfig) return null;

  return (
    <CenteredPage
      brandName={config?.brandName}
      footer={
        config?.docsUrl ? (
          <Text size="xs" c="dimmed">
            Need help?{' '}
            <Anchor href={config.docsUrl} target="_blank" rel="noopener noreferrer" inherit>
              Read the documentation
            </Anchor>
          </Text>
        ) : null
      }
    >
      <Outlet />
    </CenteredPage>
  );
}
