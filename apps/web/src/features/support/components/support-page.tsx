import { Button } from '@mantine/core';
import { IconExternalLink, IconLifebuoy } from '@tabler/icons-react';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { useGetConfigQuery } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';

/** /app/support */
export function SupportPage() {
  const { data: config } = useGetConfigQuery();
  return (
    <PageFrame title={PAGES.support.title} description="How to reach us, when, and how fast we answer on your plan.">
      <EmptyState
        icon={<IconLifebuoy size={28} stroke={1.6} />}
        title="Support details are on their way"
        description="Your support contacts, hours and response times will be listed here. Until then, the documentation answers most questions."
        action={
          config?.docsUrl ? (
            <Button
              component="a"
              href={config.docsUrl}
              target="_blank"
              rel="noopener noreferrer"
              variant="light"
              rightSection={<IconExternalLink size={16} />}
            >
              Open the documentation
            </Button>
          ) : null
        }
      />
    </PageFrame>
  );
}
