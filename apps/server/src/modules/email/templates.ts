import { formatDate, formatMoney } from '../billing/billing-documents';
import type { TemplateData, TemplateName } from './email-job';
import type { Block, BrandLook } from './layout';
import { COLORS } from './layout';

/**
 * One e-mail: its subject, preview line, layout blocks (with tokens, compiled once) and the values
 * of those tokens, and its plain-text part. Texts that tests or people rely on (the sign-in link's
 * line, "Amount paid: …") keep their wording.
 */
export interface TemplateDef<T extends TemplateName> {
  subject(d: TemplateData<T>, look: BrandLook): string;
  preview(d: TemplateData<T>, look: BrandLook): string;
  blocks: Block[];
  /** The footer's first line; the default says the e-mail is about the reader's account. */
  footer?: string;
  vars(d: TemplateData<T>, look: BrandLook): Record<string, string>;
  raw?(d: TemplateData<T>, look: BrandLook): Record<string, string>;
  text(d: TemplateData<T>, look: BrandLook): string;
}

const date = (iso: string) => formatDate(new Date(iso));
const lines = (...parts: string[]) => parts.join('\n');
const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const signIn: TemplateDef<'sign-in'> = {
  subject: (_d, look) => `Your sign-in link for ${look.name}`,
  preview: (d) => `The link works once and expires in ${d.minutes} minutes.`,
  blocks: [
    { kind: 'title', text: 'Sign in to {{brand}}' },
    { kind: 'text', text: 'Click the button below to sign in. The link works once and expires in {{minutes}} minutes.' },
    { kind: 'button', href: '{{url}}', label: 'Sign in to {{brand}}' },
    { kind: 'fallback-link', href: '{{url}}' },
    { kind: 'divider' },
    { kind: 'note', text: 'If you did not ask for this e-mail, you can ignore it: nobody can sign in without the link.' },
  ],
  vars: (d) => ({ url: d.url, minutes: String(d.minutes) }),
  text: (d, look) =>
    lines(
      'Hello,',
      '',
      `Use this link to sign in to ${look.name}:`,
      '',
      d.url,
      '',
      `The link works once and expires in ${d.minutes} minutes.`,
      'If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.',
    ),
};

function receiptItems(d: TemplateData<'receipt'>) {
  return d.lines.length > 0 ? d.lines : [{ description: d.summary, quantity: 1, amount: d.amountPaid }];
}

const cell = `padding:12px 0;border-bottom:1px solid ${COLORS.border};vertical-align:top`;

const receipt: TemplateDef<'receipt'> = {
  subject: (d) => `Your receipt for invoice ${d.number}`,
  preview: (d, look) => `${formatMoney(d.amountPaid, d.currency)} paid to ${look.name} on ${date(d.paidAt)}.`,
  blocks: [
    { kind: 'title', text: 'Your receipt from {{brand}}' },
    { kind: 'amount', label: 'Amount paid', value: '{{amount}}' },
    {
      kind: 'facts',
      rows: [
        ['Invoice number', '{{number}}'],
        ['Date paid', '{{date}}'],
        ['Subscription', '{{summary}}'],
      ],
    },
    { kind: 'items', total: '{{amount}}' },
    { kind: 'button', href: '{{url}}', label: 'View or print the invoice' },
    { kind: 'note', text: 'Thank you for your payment. Keep this e-mail for your records.' },
  ],
  vars: (d) => ({
    amount: formatMoney(d.amountPaid, d.currency),
    number: d.number,
    date: date(d.paidAt),
    summary: d.summary,
    url: d.url,
  }),
  raw: (d) => ({
    items: receiptItems(d)
      .map((l) => {
        const period =
          'periodStart' in l && l.periodStart && l.periodEnd
            ? `<div style="color:${COLORS.muted};font-size:12px;line-height:18px">${esc(date(l.periodStart))} – ${esc(date(l.periodEnd))}</div>`
            : '';
        return `<tr><td style="${cell}">${esc(l.description)}${period}</td><td style="${cell};text-align:right;padding-left:12px">${l.quantity}</td><td style="${cell};text-align:right;padding-left:12px;white-space:nowrap">${esc(formatMoney(l.amount, d.currency))}</td></tr>`;
      })
      .join(''),
  }),
  text: (d, look) =>
    lines(
      `Your receipt from ${look.name}`,
      '',
      `Invoice ${d.number}`,
      `Amount paid: ${formatMoney(d.amountPaid, d.currency)}`,
      `Date: ${date(d.paidAt)}`,
      d.summary,
      '',
      ...receiptItems(d).map((l) => `- ${l.description} (${l.quantity}): ${formatMoney(l.amount, d.currency)}`),
      '',
      'Thank you for your payment.',
      '',
      `View or print the invoice: ${d.url}`,
    ),
};

/**
 * The body both e-mails of a failing payment share (the failure, then the reminder): the amount,
 * the invoice and the date the license ends, the way to pay, and what paying does.
 */
function failingPaymentBlocks(title: string, lead: string, warning: string): TemplateDef<'payment-failed'>['blocks'] {
  return [
    { kind: 'title', text: title },
    { kind: 'text', text: lead },
    { kind: 'amount', label: 'Amount due', value: '{{amount}}' },
    {
      kind: 'facts',
      rows: [
        ['Invoice number', '{{number}}'],
        ['License valid until', '{{until}}'],
      ],
    },
    { kind: 'text', text: warning },
    { kind: 'button', href: '{{url}}', label: 'Update your card' },
    { kind: 'note', text: 'The open invoice is paid with the new card as soon as you add it.' },
  ];
}

const failingPaymentVars = (d: { amountDue: number; currency: string; number: string; accessUntil: string; url: string }) => ({
  amount: formatMoney(d.amountDue, d.currency),
  number: d.number,
  until: date(d.accessUntil),
  url: d.url,
});

const paymentFailed: TemplateDef<'payment-failed'> = {
  subject: (d) => `Your payment for invoice ${d.number} failed`,
  preview: (d) => `Update your card before ${date(d.accessUntil)} to keep your subscription.`,
  blocks: failingPaymentBlocks(
    'Your payment failed',
    'We could not charge your card for invoice {{number}}.',
    'Update your card on the billing page before {{until}} to keep your license; after that date the subscription ends.',
  ),
  vars: failingPaymentVars,
  text: (d) =>
    lines(
      `We could not charge your card ${formatMoney(d.amountDue, d.currency)} for invoice ${d.number}.`,
      '',
      `Your license stays valid until ${date(d.accessUntil)} while we retry the payment. Add a working card on the billing page before then, or the subscription ends.`,
      '',
      `Update your card: ${d.url}`,
    ),
};

const paymentReminder: TemplateDef<'payment-reminder'> = {
  subject: (d) => `Your license ends on ${date(d.accessUntil)} unless invoice ${d.number} is paid`,
  preview: (d) => `Update your card before ${date(d.accessUntil)} to keep your machines licensed.`,
  blocks: failingPaymentBlocks(
    'Your payment is still failing',
    'We still could not charge your card for invoice {{number}}.',
    'On {{until}} the subscription ends and its license expires: your nodes stop validating. Add a working card to keep them running.',
  ),
  vars: failingPaymentVars,
  text: (d) =>
    lines(
      `We still could not charge your card ${formatMoney(d.amountDue, d.currency)} for invoice ${d.number}.`,
      '',
      `On ${date(d.accessUntil)} the subscription ends and its license expires: your nodes stop validating. Add a working card on the billing page before then.`,
      '',
      `Update your card: ${d.url}`,
    ),
};

const renewalUpcoming: TemplateDef<'renewal-upcoming'> = {
  subject: (d) => `Your subscription renews on ${date(d.renewsOn)}`,
  preview: (d) => `${formatMoney(d.amount, d.currency)} will be charged to your card on ${date(d.renewsOn)}.`,
  blocks: [
    { kind: 'title', text: 'Your subscription renews soon' },
    { kind: 'amount', label: 'Renewal amount', value: '{{amount}}' },
    {
      kind: 'facts',
      rows: [
        ['Subscription', '{{summary}}'],
        ['Renews on', '{{date}}'],
      ],
    },
    { kind: 'text', text: 'We will charge the card on file on that date. Nothing needs to be done to keep your license.' },
    { kind: 'button', href: '{{url}}', label: 'Review billing' },
    { kind: 'note', text: 'To change the quantity or cancel before the renewal, open the billing page.' },
  ],
  vars: (d) => ({ amount: formatMoney(d.amount, d.currency), summary: d.summary, date: date(d.renewsOn), url: d.url }),
  text: (d) =>
    lines(
      `Your subscription (${d.summary}) renews on ${date(d.renewsOn)}.`,
      `We will charge ${formatMoney(d.amount, d.currency)} to the card on file on that date.`,
      '',
      `To change the quantity or cancel before then, open billing: ${d.url}`,
    ),
};

const expiry = (d: { expMonth: number; expYear: number }) => `${String(d.expMonth).padStart(2, '0')}/${d.expYear}`;

const cardExpiring: TemplateDef<'card-expiring'> = {
  subject: (d) => `Your card ending in ${d.last4} expires before your next renewal`,
  preview: (d) => `Add a new card before ${date(d.renewsOn)} so the renewal goes through.`,
  blocks: [
    { kind: 'title', text: 'Your card is about to expire' },
    {
      kind: 'facts',
      rows: [
        ['Card', '{{card}} ending in {{last4}}'],
        ['Expires', 'End of {{expiry}}'],
        ['Next renewal', '{{date}}'],
      ],
    },
    {
      kind: 'text',
      text: 'The {{card}} card ending in {{last4}} that pays for your subscription expires at the end of {{expiry}}, before your renewal on {{date}}.',
    },
    { kind: 'text', text: 'Add a new card on the billing page so the renewal goes through.' },
    { kind: 'button', href: '{{url}}', label: 'Update your card' },
  ],
  vars: (d) => ({ card: d.cardBrand, last4: d.last4, expiry: expiry(d), date: date(d.renewsOn), url: d.url }),
  text: (d) =>
    lines(
      `The ${d.cardBrand} card ending in ${d.last4} that pays for your subscription expires at the end of ${expiry(d)}, before your renewal on ${date(d.renewsOn)}.`,
      'Add a new card on the billing page so the renewal goes through.',
      '',
      `Update your card: ${d.url}`,
    ),
};

const accountDeleted: TemplateDef<'account-deleted'> = {
  subject: (_d, look) => `Your ${look.name} account has been deleted`,
  preview: () => 'Your personal data has been erased.',
  blocks: [
    { kind: 'title', text: 'Your account has been deleted' },
    { kind: 'text', text: 'As you asked, your {{brand}} account was deleted on {{date}} and its personal data erased.' },
    {
      kind: 'text',
      text: 'Your subscriptions have ended without further charges and your licenses have been revoked. Invoices are kept for accounting, without your name or address.',
    },
    { kind: 'note', text: 'If you did not ask for this, contact support.' },
  ],
  footer: 'This is the last e-mail about this account.',
  vars: (d) => ({ date: date(d.deletedAt) }),
  text: (d, look) =>
    lines(
      `As you asked, your ${look.name} account was deleted on ${date(d.deletedAt)} and its personal data erased.`,
      '',
      'Your subscriptions have ended without further charges and your licenses have been revoked. Invoices are kept for accounting, without your name or address.',
      '',
      'If you did not ask for this, contact support.',
    ),
};

const subscriptionCancelled: TemplateDef<'subscription-cancelled'> = {
  subject: () => 'Your subscription is cancelled',
  preview: (d) => `You keep access until ${date(d.accessUntil)}.`,
  blocks: [
    { kind: 'title', text: 'Your subscription is cancelled' },
    {
      kind: 'text',
      text: 'Your subscription ({{summary}}) is cancelled. You keep access until {{date}}, and you can re-activate it until then without being charged again before that date.',
    },
    { kind: 'button', href: '{{url}}', label: 'Open billing' },
  ],
  vars: (d) => ({ summary: d.summary, date: date(d.accessUntil), url: d.url }),
  text: (d) =>
    lines(
      `Your subscription (${d.summary}) is cancelled. You keep access until ${date(d.accessUntil)}, and you can re-activate it until then without being charged again before that date.`,
      '',
      `Open billing: ${d.url}`,
    ),
};

const subscriptionEnded: TemplateDef<'subscription-ended'> = {
  subject: () => 'Your subscription has ended',
  preview: (d) => `Its license expired on ${date(d.endedOn)}.`,
  blocks: [
    { kind: 'title', text: 'Your subscription has ended' },
    {
      kind: 'text',
      text: 'Your subscription ({{summary}}) ended on {{date}} and its license has expired. You can start a new subscription at any time.',
    },
    { kind: 'button', href: '{{url}}', label: 'Open billing' },
  ],
  vars: (d) => ({ summary: d.summary, date: date(d.endedOn), url: d.url }),
  text: (d) =>
    lines(
      `Your subscription (${d.summary}) ended on ${date(d.endedOn)} and its license has expired. You can start a new subscription at any time.`,
      '',
      `Open billing: ${d.url}`,
    ),
};

const creditNote: TemplateDef<'credit-note'> = {
  subject: (d) => `Credit note ${d.number} for invoice ${d.invoiceNumber}`,
  preview: (d) =>
    `${formatMoney(d.total, d.currency)} of invoice ${d.invoiceNumber} ${d.kind === 'refund' ? 'refunded' : 'credited'}.`,
  blocks: [
    { kind: 'title', text: 'Credit note {{number}}' },
    { kind: 'text', text: '{{sentence}} The credit note is attached as a PDF.' },
    { kind: 'button', href: '{{url}}', label: 'Open billing' },
  ],
  vars: (d) => ({ number: d.number, sentence: creditNoteSentence(d), url: d.url }),
  text: (d) =>
    lines(
      creditNoteSentence(d),
      'The credit note is attached as a PDF.',
      '',
      `Credit note: ${d.number}`,
      `Open billing: ${d.url}`,
    ),
};

function creditNoteSentence(d: TemplateData<'credit-note'>) {
  const amount = formatMoney(d.total, d.currency);
  const how = d.kind === 'refund' ? 'refunded to your card' : 'credited to your account balance for your next payments';
  return `On ${date(d.issuedAt)}, ${amount} of invoice ${d.invoiceNumber} was ${how}.`;
}

export const TEMPLATES: { [T in TemplateName]: TemplateDef<T> } = {
  'sign-in': signIn,
  receipt,
  'payment-failed': paymentFailed,
  'payment-reminder': paymentReminder,
  'renewal-upcoming': renewalUpcoming,
  'card-expiring': cardExpiring,
  'account-deleted': accountDeleted,
  'subscription-cancelled': subscriptionCancelled,
  'subscription-ended': subscriptionEnded,
  'credit-note': creditNote,
};
