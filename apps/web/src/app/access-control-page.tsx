import { Badge } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { PageFrame } from '../components/page-frame';
import { PAGES } from '../lib/pages';
import { EmptyState } from '@portal/ui';

/**
 * /app/access-control: a route of the signed-in layout whose feature is not built yet. Its menu
 * entry stays disabled; a visitor who types the address sees the shell and this page.
 */
export function AccessControlPage() {
  return (
    <PageFrame
      title={PAGES.accessControl.title}
      description="Decide who in your organisation can see and manage licenses."
      actions={
        <Badge variant="light" color="gray" size="lg">
          Coming soon
        </Badge>
      }
    >
      <EmptyState
        icon={<IconShieldLock />}
        title="Coming soon"
        description="Access control is not available yet. Until then, everyone signed in to your organisation's account can manage its licenses."
      />
    </PageFrame>
  );
}
