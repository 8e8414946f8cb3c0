import { PAGES } from './pages';

export type AttentionLevel = 'red' | 'yellow' | 'info';

/** Something that needs the customer's attention: what, why, and the one thing to do about it. */
export interface Attention {
  id: string;
  level: AttentionLevel;
  title: string;
  message: string;
  /** Words of the vendor's staff quoted beneath the message, as plain text (a suspension's reason meant for the customer). */
  quotes?: readonly VendorQuote[];
  action: { label: string; to: string };
}

/** What the vendor's staff wrote to the customer, and above it whose words they are. */
export interface VendorQuote {
  label: string;
  text: string;
}

/** The heading of a suspension's message, in the same words wherever the portal shows one. */
export const SUSPENSION_MESSAGE_LABEL = 'Message from the vendor';

/**
 * A license staff suspended, in the same words wherever the portal tells it (the dashboard's
 * warning, the subscription on Billing): what it means for the machines, whom to contact, and
 * what the vendor's staff told the customer about it when they left a message (`messages` by key).
 */
export function suspendedAttention(keys: readonly string[], messages: Readonly<Partial<Record<string, string>>> = {}): Attention {
  const action = { label: 'Contact support', to: PAGES.support.path };
  if (keys.length === 1) {
    const text = messages[keys[0]!];
    return {
      id: 'suspended',
      level: 'red',
      title: 'A license is suspended',
      message: `License ${keys[0]} was suspended by the vendor: its machines no longer validate, and no other machine can be activated on it. Contact support to learn why and to have it resumed.`,
      ...(text ? { quotes: [{ label: SUSPENSION_MESSAGE_LABEL, text }] } : {}),
      action,
    };
  }
  const quotes = keys.flatMap((key) => {
    const text = messages[key];
    return text ? [{ label: `${SUSPENSION_MESSAGE_LABEL} about ${key}`, text }] : [];
  });
  return {
    id: 'suspended',
    level: 'red',
    title: `${keys.length} licenses are suspended`,
    message:
      'The vendor suspended these licenses: their machines no longer validate, and no other machine can be activated on them. Contact support to learn why and to have them resumed.',
    ...(quotes.length > 0 ? { quotes } : {}),
    action,
  };
}
