import { z } from 'zod';

/**
 * Every action the staff audit log records (docs/decisions/116-typed-audit-and-enum-columns.md):
 * the console's action ids (its routes' names) and the staff's own events. Stored as the
 * `staff_audit_action` enum; a new one is added here, in a migration (`alter type … add value`),
 * and in the console's labels, which the compiler asks for. An id is never renamed or removed:
 * rows keep it.
 */
export const STAFF_AUDIT_ACTIONS = [
  // licenses and nodes
  'suspendLicense',
  'resumeLicense',
  'extendLicense',
  'issueLicense',
  'releaseNode',
  // the customer's account
  'sendSignInLink',
  'endSessions',
  'updateCustomerBillingDetails',
  'deleteCustomer',
  // subscriptions and invoices
  'cancelAtPeriodEnd',
  'reactivateSubscription',
  'cancelNow',
  'retryPayment',
  'refundInvoice',
  'creditInvoice',
  // list and report exports (CSV)
  'exportCustomers',
  'exportSubscriptions',
  'exportLicenses',
  'exportInvoices',
  'exportTaxReport',
  // outbound webhooks
  'webhook_endpoint_created',
  'webhook_endpoint_updated',
  'webhook_endpoint_deleted',
  'webhook_secret_rotated',
  'webhook_resent',
  // staff, their sign-ins, second factors and API tokens
  'staff_added',
  'staff_role_changed',
  'staff_removed',
  'staff_signed_in',
  'staff_factor_added',
  'staff_factor_removed',
  'staff_factors_reset',
  'staff_recovery_codes_renewed',
  'staff_second_factor_passed',
  'staff_second_factor_failed',
  'staff_token_created',
  'staff_token_revoked',
] as const;
export type StaffAuditAction = (typeof STAFF_AUDIT_ACTIONS)[number];
export const StaffAuditActionSchema = z.enum(STAFF_AUDIT_ACTIONS);

/**
 * Every kind of entry of the customer's activity log (`audit_events.action`, the
 * `audit_event_action` enum): the server's audit events (modules/audit/audit-events.ts), whose
 * union the compiler holds to this list. Never renamed or removed, as above.
 */
export const ACTIVITY_ACTIONS = [
  'signed_in',
  'identity_linked',
  'onboarded',
  'profile_updated',
  'account_deleted',
  'billing_details_updated',
  'sign_in_link_sent',
  'sessions_ended',
  'node_activated',
  'node_released',
  'license_issued',
  'license_resized',
  'license_extended',
  'license_expired',
  'license_revoked',
  'license_suspended',
  'license_resumed',
  'card_added',
  'card_removed',
  'subscription_created',
  'subscription_quantity_changed',
  'subscription_interval_changed',
  'subscription_renewed',
  'subscription_payment_failed',
  'subscription_cancelled',
  'subscription_reactivated',
  'subscription_ended',
  'api_token_created',
  'api_token_revoked',
  'api_token_used',
  'invoice_paid',
  'invoice_refunded',
  'invoice_credited',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
