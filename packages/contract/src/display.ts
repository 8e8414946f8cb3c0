import { CONFIRM_PHRASE, FREE_MAIL_DOMAINS, NO_NAME } from './constants';

// Plain functions and constants only, no zod: the sign-in page's first chunk uses some of these,
// and a schema built at load time would bring zod into it. Form rules on schemas: display-forms.ts.

/**
 * The typed confirmation of the subscription modals and of account deletion: exactly 'I confirm',
 * compared case-insensitively, with nothing trimmed (' I confirm ' is not the phrase).
 */
export function isConfirmPhrase(typed: string): boolean {
  return typed.toLowerCase() === CONFIRM_PHRASE.toLowerCase();
}

/** 'fname lname', or 'No name' when both are empty. */
export function displayName(u: { fname?: string | null; lname?: string | null }): string {
  const name = [u.fname?.trim(), u.lname?.trim()].filter(Boolean).join(' ');
  return name || NO_NAME;
}

/** Up to two initials of the display name; '?' when there is no name. */
export function initials(u: { fname?: string | null; lname?: string | null }): string {
  const parts = [u.fname, u.lname].map((p) => p?.trim() ?? '').filter(Boolean);
  if (parts.length === 0) return '?';
  return parts
    .map((p) => p[0]!.toUpperCase())
    .join('')
    .slice(0, 2);
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * The domain to group a user under as 'company', or null for the free-mail providers
 * (see docs/decisions on the reading of this rule).
 */
export function companyGroupFor(email: string): string | null {
  const domain = emailDomain(email);
  if (!domain || !email.includes('@')) return null;
  return (FREE_MAIL_DOMAINS as readonly string[]).includes(domain) ? null : domain;
}

/** 'month' -> 'monthly', 'year' -> 'yearly': every billing text (pages, e-mails, activity) writes an interval so. */
export function intervalLabel(interval: string): string {
  return `${interval}ly`;
}

/** The interval a billing-period change switches to. */
export function otherInterval(interval: 'month' | 'year'): 'month' | 'year' {
  return interval === 'month' ? 'year' : 'month';
}

/** Access to the products: paid up, or in the grace of a failed renewal. */
export function hasAccess(s: { status: string }): boolean {
  return s.status === 'active' || s.status === 'past_due';
}

/** '1 node', '3 nodes': a count and its noun, with the plural given where 's' is not it. */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The status of a subscription whose renewal failed (past_due, in grace), wherever it shows. */
export const PAYMENT_FAILING_LABEL = 'Payment failed, retrying';
