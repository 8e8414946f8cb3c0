import type { ServiceDeps } from '../../services';
import type { AuditService } from '../audit/audit.service';
import type { LicenseService } from '../licenses/licenses.service';
import type { OutboxService } from '../outbox/outbox.service';

/** Placeholder until the billing module lands. */
export function createBillingService(_deps: ServiceDeps & { audit: AuditService; outbox: OutboxService; licenses: LicenseService }) {
  return {
    startWorkers() {},
    async stopWorkers() {},
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
