import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';

/** /app/licenses */
export function LicensesPage() {
  return (
    <PageFrame title={PAGES.licenses.title} description="Your license keys and the nodes activated on each of them.">
      <EmptyState
        icon={<IconKey size={28} stroke={1.6} />}
        title="No licenses yet"
        description="A license key is issued as soon as you subscribe. Each key admits as many nodes as your subscription quantity."
        action={
          <Button component={Link} to={PAGES.billing.path}>
            Subscribe in Billing
          </Button>
        }
      />
    </PageFrame>
  );
}
