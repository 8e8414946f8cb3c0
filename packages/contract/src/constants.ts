/** Business constants both apps share: limits, the confirm phrase, the landing page, layout and timing. */
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 99;
export const CONFIRM_PHRASE = 'I confirm';
export const DEFAULT_LANDING = '/app/dashboard';
export const MOBILE_BREAKPOINT_PX = 992;
export const AVATAR_SIZE_PX = 40;
export const TOOLTIP_OPEN_DELAY_MS = 50;
export const TOOLTIP_CLOSE_DELAY_MS = 125;
export const MODAL_TRANSITION_MS = 300;
export const MODAL_BACKDROP_TRANSITION_MS = 150;
export const PROGRESS_ANIMATION_MS = 200;
export const PROGRESS_INCREMENT_MS = 800;
export const PROGRESS_MINIMUM = 0.08;
export const COMING_SOON_BADGE = 'Coming soon';
export const NO_NAME = 'No name';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export const LOGIN_LINK_TTL_MINUTES = 15;
/** Account deletion needs a sign-in this recent. */
export const RECENT_SIGN_IN_MINUTES = 15;
export const NAME_MAX_LENGTH = 100;
export const FINGERPRINT_MAX_LENGTH = 256;
export const HOSTNAME_MAX_LENGTH = 253;
/** A node unseen for longer than this is shown as stale. */
export const NODE_STALE_AFTER_HOURS = 24;

/** A license expiring within this many days is listed as expiring soon on the dashboard. */
export const LICENSE_EXPIRING_SOON_DAYS = 14;

/** The 18 common free mail providers: users on these domains are not grouped by company. */
export const FREE_MAIL_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.co.uk',
  'hotmail.com',
  'hotmail.co.uk',
  'outlook.com',
  'live.com',
  'msn.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mail.com',
  'gmx.com',
  'protonmail.com',
  'proton.me',
  'yandex.com',
  'zoho.com',
] as const;

export const MODAL_IDS = [
  'ChangeQuantityModal',
  'UpdateBillingPeriodModal',
  'CancelSubscriptionModal',
  'ReactivateSubscriptionModal',
] as const;
export type ModalId = (typeof MODAL_IDS)[number];

/** The portal's fixed texts, word for word: both apps and the tests use these, never a copy. */
export const TEXT = {
  unknownError: 'An unknown error occurred',
  quantityMustDiffer: 'Quantity must be different from the current one',
  confirmRequired: 'Please type "I confirm" to proceed',
  submitting: 'Submitting, please wait...',
  warnQuantity: 'You will be charged immediately for the new quantity.',
  warnInterval: 'You will be charged immediately for the new billing period.',
  warnCancel: 'You will lose access to the products at the end of the billing period.',
  documentation: 'Documentation',
} as const;

export const MODAL_TITLES: Record<ModalId, string> = {
  ChangeQuantityModal: 'Update Subscription Quantity',
  UpdateBillingPeriodModal: 'Update Billing Period',
  CancelSubscriptionModal: 'Cancel Subscription',
  ReactivateSubscriptionModal: 'Re-activate subscription',
};

/** The id of the script element (JSON, not run) that carries a signed-in page's first answers (first-reads.ts). */
export const FIRST_ANSWERS_ELEMENT_ID = 'first-answers';
