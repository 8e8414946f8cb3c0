import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';
import type { SessionService } from '../auth/sessions';
import type { BillingService } from '../billing/billing.service';
import type { LicenseService } from '../licenses/licenses.service';

/** Placeholder until account export and deletion land: profile, activity, export, deletion. */
export function createAccountService(_deps: ServiceDeps & { audit: AuditService; sessions: SessionService; billing: BillingService; licenses: LicenseService }) {
  return {};
}
export type AccountService = ReturnType<typeof createAccountService>;
