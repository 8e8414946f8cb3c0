import type { ActionRoute } from '../api';

/** The extra fields an action asks for besides its reason. */
export type ActionField = 'days' | 'maxNodes' | 'amount' | 'confirmEmail' | 'customerMessage';

export interface ActionCopy {
  title: string;
  /** What will happen, in one or two sentences (the subject is filled in). */
  describe: (subject: string) => string;
  confirm: string;
  /** Red for what cannot be undone or cuts the customer off; the accent otherwise. */
  danger: boolean;
  fields: readonly ActionField[];
  /** The toast after it worked. */
  done: string;
  /** An example reason for this action, the reason field's placeholder. */
  example: string;
}

/** Every staff action's words: one place, so the menu, the dialog and the toast agree. */
export const ACTION_COPY: Record<ActionRoute, ActionCopy> = {
  suspendLicense: {
    title: 'Suspend license',
    describe: (s) => `License ${s} stops validating on every node until it is resumed. Its nodes stay activated.`,
    confirm: 'Suspend license',
    danger: true,
    fields: ['customerMessage'],
    done: 'License suspended',
    example: 'Ticket #4821: chargeback opened on the last invoice',
  },
  resumeLicense: {
    title: 'Resume license',
    describe: (s) => `License ${s} validates again on its nodes (until its expiry date).`,
    confirm: 'Resume license',
    danger: false,
    fields: [],
    done: 'License resumed',
    example: 'Ticket #4821: chargeback withdrawn by the bank',
  },
  extendLicense: {
    title: 'Extend license',
    describe: (s) => `License ${s} stays valid for more days: from its expiry date, or from today if it has expired.`,
    confirm: 'Extend license',
    danger: false,
    fields: ['days'],
    done: 'License extended',
    example: 'Ticket #4822: card being replaced, 14 days of grace',
  },
  releaseNode: {
    title: 'Release node',
    describe: (s) => `Node ${s} is deactivated and frees its place on the license; it fails validation from now on.`,
    confirm: 'Release node',
    danger: true,
    fields: [],
    done: 'Node released',
    example: 'Ticket #4823: machine retired, customer cannot reach it',
  },
  issueLicense: {
    title: 'Issue complimentary license',
    describe: (s) => `${s} receives a new license with no subscription behind it, valid for the days you choose.`,
    confirm: 'Issue license',
    danger: false,
    fields: ['maxNodes', 'days'],
    done: 'License issued',
    example: 'Partner evaluation agreed by sales, ticket #4824',
  },
  sendSignInLink: {
    title: 'Send sign-in link',
    describe: (s) => `A new sign-in link is e-mailed to ${s}; older links stop working.`,
    confirm: 'Send link',
    danger: false,
    fields: [],
    done: 'Sign-in link sent',
    example: 'Ticket #4825: customer says the last link never arrived',
  },
  endSessions: {
    title: 'End all sessions',
    describe: (s) => `${s} is signed out on every device and has to sign in again.`,
    confirm: 'End sessions',
    danger: true,
    fields: [],
    done: 'Sessions ended',
    example: 'Ticket #4826: laptop stolen, customer asked to sign out everywhere',
  },
  cancelAtPeriodEnd: {
    title: 'Cancel at period end',
    describe: (s) => `Subscription ${s} is not renewed. Its license keeps working until the end of the paid period.`,
    confirm: 'Cancel at period end',
    danger: true,
    fields: [],
    done: 'Subscription set to cancel at period end',
    example: 'Ticket #4827: customer asked by phone to stop renewing',
  },
  reactivateSubscription: {
    title: 'Re-activate subscription',
    describe: (s) => `Subscription ${s} renews again at the end of its period, as before the cancellation.`,
    confirm: 'Re-activate',
    danger: false,
    fields: [],
    done: 'Subscription re-activated',
    example: 'Ticket #4828: customer changed their mind before the period ended',
  },
  cancelNow: {
    title: 'Cancel now',
    describe: (s) => `Subscription ${s} ends immediately and its license expires now. This cannot be undone.`,
    confirm: 'Cancel now',
    danger: true,
    fields: [],
    done: 'Subscription cancelled',
    example: 'Ticket #4829: duplicate subscription bought by mistake',
  },
  retryPayment: {
    title: 'Retry payment now',
    describe: (s) =>
      `The open invoice of subscription ${s} is charged once, now, to the card on file. If it is paid, the subscription is active again at once and the customer gets a receipt; if it is declined, it stays past due and the next scheduled retry stands.`,
    confirm: 'Retry payment',
    danger: false,
    fields: [],
    done: 'Payment received',
    example: 'Ticket #4830: customer says the card works again',
  },
  refundInvoice: {
    title: 'Refund invoice',
    describe: (s) => `Invoice ${s} is refunded through the payment provider, wholly or in part.`,
    confirm: 'Refund',
    danger: true,
    fields: ['amount'],
    done: 'Refund issued',
    example: 'Ticket #4831: charged twice for the same period',
  },
  creditInvoice: {
    title: 'Credit invoice',
    describe: (s) =>
      `Part of invoice ${s} goes to the customer's balance instead of back to the card, and is taken off their next payments.`,
    confirm: 'Credit',
    danger: false,
    fields: ['amount'],
    done: 'Credit added',
    example: 'Ticket #4832: outage on the 3rd, one day credited',
  },
  deleteCustomer: {
    title: 'Delete customer',
    describe: (s) =>
      `${s}'s subscriptions are cancelled now, their licenses revoked, their personal data erased and every session ended: the same deletion as from their own profile. This cannot be undone.`,
    confirm: 'Delete customer',
    danger: true,
    fields: ['confirmEmail'],
    done: 'Customer deleted',
    example: 'Ticket #4833: written request to delete the account (GDPR art. 17)',
  },
};
