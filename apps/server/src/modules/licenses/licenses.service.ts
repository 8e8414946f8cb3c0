import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';

/** Placeholder until the licenses module lands: the wiring other modules build against. */
export function createLicenseService(_deps: ServiceDeps & { audit: AuditService }) {
  return {};
}
export type LicenseService = ReturnType<typeof createLicenseService>;
