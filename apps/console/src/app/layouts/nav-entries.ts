import {
  IconChartAreaLine,
  IconFileInvoice,
  IconHistory,
  IconKey,
  IconLock,
  IconPlugConnected,
  IconReceiptTax,
  IconRepeat,
  IconUsers,
  IconUserShield,
  IconWebhook,
  type Icon,
} from '@tabler/icons-react';
import type { ConsoleRouteId } from '@portal/contract';

export interface NavEntry {
  label: string;
  path: string;
  icon: Icon;
  /** The console route the page reads: the entry is shown only to roles that may call it. */
  route: ConsoleRouteId;
}

/** The side menu: what a vendor's support and finance staff open every day, then the team. */
export const NAV_GROUPS: ReadonlyArray<{ label: string; entries: readonly NavEntry[] }> = [
  {
    label: 'Business',
    entries: [
      { label: 'Overview', path: '/overview', icon: IconChartAreaLine, route: 'getOverview' },
      { label: 'Customers', path: '/customers', icon: IconUsers, route: 'listCustomers' },
      { label: 'Subscriptions', path: '/subscriptions', icon: IconRepeat, route: 'listSubscriptions' },
      { label: 'Licenses', path: '/licenses', icon: IconKey, route: 'listLicenses' },
      { label: 'Invoices', path: '/invoices', icon: IconFileInvoice, route: 'listInvoices' },
      { label: 'Tax report', path: '/reports/tax', icon: IconReceiptTax, route: 'getTaxReport' },
    ],
  },
  {
    label: 'Team',
    entries: [
      { label: 'Audit log', path: '/audit', icon: IconHistory, route: 'listStaffAudit' },
      { label: 'Staff', path: '/staff', icon: IconUserShield, route: 'listStaff' },
      { label: 'Security', path: '/security', icon: IconLock, route: 'listFactors' },
      { label: 'API tokens', path: '/api-tokens', icon: IconPlugConnected, route: 'listStaffTokens' },
      { label: 'Webhooks', path: '/webhooks', icon: IconWebhook, route: 'listWebhookEndpoints' },
    ],
  },
];
