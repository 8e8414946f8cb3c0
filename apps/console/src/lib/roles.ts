import type { StaffRole } from '@portal/contract';

export const ROLE_LABEL: Record<StaffRole, string> = { owner: 'Owner', support: 'Support', billing: 'Billing' };

/** What each role may do, as owners read it when they add someone. */
export const ROLE_DESCRIPTION: Record<StaffRole, string> = {
  owner: 'Everything, including staff management and deleting customers.',
  support: 'Reads everything; license and node actions, sign-in links and sessions.',
  billing: 'Reads everything; cancellations, re-activations and refunds.',
};
