import { PAGES } from './pages';

export type AttentionLevel = 'red' | 'yellow' | 'info';

/** Something that needs the customer's attention: what, why, and the one thing to do about it. */
export interface Attention {
  id: string;
  level: AttentionLevel;
  title: string;
  message: string;
  action: { label: string; to: string };
}

/**
 * A license staff suspended, in the same words wherever the portal tells it (the dashboard's
 * warning, the subscription on Billing): what it means for the machines, and whom to contact.
 */
export function suspendedAttention(keys: readonly string[]): Attention {
  const action = { label: 'Contact support', to: PAGES.support.path };
  if (keys.length === 1) {
    return {
      id: 'suspended',
      level: 'red',
      title: 'A license is suspended',
      message: `License ${keys[0]} was suspended by the vendor: its machines no longer validate, and no other machine can be activated on it. Contact support to learn why and to have it resumed.`,
      action,
    };
  }
  return {
    id: 'suspended',
    level: 'red',
    title: `${keys.length} licenses are suspended`,
    message:
      'The vendor suspended these licenses: their machines no longer validate, and no other machine can be activated on them. Contact support to learn why and to have them resumed.',
    action,
  };
}
