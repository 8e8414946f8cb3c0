import type { LicenseSummary, SupportInfo } from '@portal/contract';
import { localReleaseStorage } from '../../providers/storage';
import type { ServiceDeps } from '../../services';
import type { BillingService } from '../billing/billing.service';
import type { LicenseService } from '../licenses/licenses.service';
import { createDownloadService } from './downloads';
import { supportInfoFor } from './support';

export type ProductServiceDeps = ServiceDeps & {
  billing: Pick<BillingService, 'listSubscriptions'>;
  licenses: Pick<LicenseService, 'summaryForUser'>;
};

/** The version in the demo ISO's name (`pce-1.0.0-demo.iso`). */
export const DEMO_VERSION = '1.0.0';

/** `billing` and `licenses` are typed by the methods this module calls, so a test fakes just those. */
export function createProductService(deps: ProductServiceDeps) {
  const { config, clock } = deps;
  const storage = localReleaseStorage({
    dir: config.releases.dir,
    log: deps.log,
    now: () => clock.now(),
    demo: config.releases.demo ? { product: config.brand.productName, version: DEMO_VERSION } : null,
  });
  const downloads = createDownloadService({ ...deps, storage });

  return {
    storage,
    downloads,

    async supportInfo(userId: string): Promise<SupportInfo> {
      const subscriptions = await deps.billing.listSubscriptions(userId);
      return supportInfoFor({ subscriptions, now: clock.now(), config });
    },

    /** The dashboard's license figures (GET /api/products/licenses). */
    async licenseSummary(userId: string): Promise<LicenseSummary> {
      const s = await deps.licenses.summaryForUser(userId);
      return { ...s, expiringSoon: s.expiringSoon.map((e) => ({ key: e.key, expiresAt: new Date(e.expiresAt).toISOString() })) };
    },

    getDownload: downloads.getDownload,
  };
}
export type ProductService = ReturnType<typeof createProductService>;
