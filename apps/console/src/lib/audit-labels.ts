import type { StaffAuditAction } from '@portal/contract';

/**
 * The staff audit's action ids as people read them. A Record, so an action added to the contract's
 * STAFF_AUDIT_ACTIONS does not compile until it has its label here.
 */
export const STAFF_AUDIT_ACTION_LABELS: Record<StaffAuditAction, string> = {
  suspendLicense: 'Suspend license',
  resumeLicense: 'Resume license',
  extendLicense: 'Extend license',
  issueLicense: 'Issue license',
  releaseNode: 'Release node',
  sendSignInLink: 'Send sign in link',
  endSessions: 'End sessions',
  updateCustomerBillingDetails: 'Update customer billing details',
  deleteCustomer: 'Delete customer',
  cancelAtPeriodEnd: 'Cancel at period end',
  reactivateSubscription: 'Reactivate subscription',
  cancelNow: 'Cancel now',
  retryPayment: 'Retry payment',
  refundInvoice: 'Refund invoice',
  creditInvoice: 'Credit invoice',
  exportCustomers: 'Export customers',
  exportSubscriptions: 'Export subscriptions',
  exportLicenses: 'Export licenses',
  exportInvoices: 'Export invoices',
  exportTaxReport: 'Export tax report',
  webhook_endpoint_created: 'Webhook endpoint created',
  webhook_endpoint_updated: 'Webhook endpoint updated',
  webhook_endpoint_deleted: 'Webhook endpoint deleted',
  webhook_secret_rotated: 'Webhook secret rotated',
  webhook_resent: 'Webhook resent',
  staff_added: 'Staff added',
  staff_role_changed: 'Staff role changed',
  staff_removed: 'Staff removed',
  staff_signed_in: 'Staff signed in',
  staff_factor_added: 'Staff factor added',
  staff_factor_removed: 'Staff factor removed',
  staff_factors_reset: 'Staff factors reset',
  staff_recovery_codes_renewed: 'Staff recovery codes renewed',
  staff_second_factor_passed: 'Staff second factor passed',
  staff_second_factor_failed: 'Staff second factor failed',
  staff_token_created: 'Staff token created',
  staff_token_revoked: 'Staff token revoked',
};

/** 'suspendLicense' -> 'Suspend license'. */
export function actionLabel(action: StaffAuditAction): string {
  return STAFF_AUDIT_ACTION_LABELS[action];
}
