import { SimpleGrid } from '@mantine/core';
import { IconCash, IconKey, IconReceipt, IconRepeat, IconServer } from '@tabler/icons-react';
import { plural, type ConsoleCustomer, formatMoney } from '@portal/contract';
import { StatTile } from '../../../components/stat-tile';
import { customerFigures } from '../customer-figures';

/** The figures at the top of a customer's page. */
export function CustomerSummary({ customer }: { customer: ConsoleCustomer }) {
  const f = customerFigures(customer);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md" className="console-tiles">
      <StatTile
        label="MRR"
        value={formatMoney(f.mrr, f.currency)}
        hint="From running subscriptions"
        icon={<IconCash size={16} />}
      />
      <StatTile
        label="Subscriptions"
        value={f.activeSubscriptions}
        hint={`${plural(customer.subscriptions.length, 'subscription')} in all`}
        icon={<IconRepeat size={16} />}
      />
      <StatTile label="Licenses" value={f.activeLicenses} hint={`active of ${f.licenses}`} icon={<IconKey size={16} />} />
      <StatTile
        label="Nodes"
        value={f.nodes}
        hint={`of ${f.allowedNodes} allowed by active licenses`}
        icon={<IconServer size={16} />}
      />
      <StatTile
        label="Paid to date"
        value={formatMoney(f.paid, f.currency)}
        hint="Over every invoice"
        icon={<IconReceipt size={16} />}
      />
    </SimpleGrid>
  );
}
