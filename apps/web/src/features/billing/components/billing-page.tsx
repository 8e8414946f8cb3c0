import { Button } from '@mantine/core';
import { IconCreditCard, IconLifebuoy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';

/** /app/billing */
export function BillingPage() {
  return (
    <PageFrame title={PAGES.billing.title} description="Payment methods, subscriptions and invoices.">
      <EmptyState
        icon={<IconCreditCard size={28} stroke={1.6} />}
        title="No subscription yet"
        description="Add a card and choose how many nodes to license, monthly or yearly. Your invoices will be kept here."
        action={
          <Button component={Link} to={PAGES.support.path} variant="light" leftSection={<IconLifebuoy size={16} />}>
            Questions? Contact support
          </Button>
        }
      />
    </PageFrame>
  );
}
