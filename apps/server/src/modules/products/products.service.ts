import type { ServiceDeps } from '../../services';
import type { BillingService } from '../billing/billing.service';
import type { LicenseService } from '../licenses/licenses.service';

/** Placeholder until the products module (support, downloads) lands. */
export function createProductService(_deps: ServiceDeps & { billing: BillingService; licenses: LicenseService }) {
  return {};
}
export type ProductService = ReturnType<typeof createProductService>;
