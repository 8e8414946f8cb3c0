import type { LicenseSummary, Subscription, SupportInfo } from '@portal/contract';
import { localReleaseStorage } from '../../providers/storage';
import type { ServiceDeps } from '../../services';
import { createDownloadService } from './downloads';
import { supportInfoFor } from './support';

/** What this module needs from the billing service (its own names and signatures). */
export interface BillingPort {
  listSubscriptions(userId: string): Promise<Subscription[]>;
}
/** What this module needs from the license service. */
export interface LicensePort {
  summaryForUser(userId: string): Promise<{
    licenses: number;
    activeNodes: number;
    maxNodes: number;
    atLimit: string[];
    expiringSoon: { key: string; expiresAt: Date | string }[];
  }>;
}

/** The version in the demo ISO's name (`pce-1.0.0-demo.iso`). */
export const DEMO_VERSION = '1.0.0';

/**
 * `billing` and `licenses` are typed by the part this module uses, so any service that offers
 * those methods with these signatures fits; one without them fails at the call, not at start-up.
 */
export function createProductService(
  deps: ServiceDeps & { billing: Partial<BillingPort> & object; licenses: Partial<LicensePort> & object },
) {
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
      const subscriptions = await port(deps.billing, 'listSubscriptions', 'billing')(userId);
      return supportInfoFor({ subscriptions, now: clock.now(), config });
    },

    /** The dashboard's license figures (GET /api/products/licenses). */
    async licenseSummary(userId: string): Promise<LicenseSummary> {
      const s = await port(deps.licenses, 'summaryForUser', 'licenses')(userId);
      return { ...s, expiringSoon: s.expiringSoon.map((e) => ({ key: e.key, expiresAt: new Date(e.expiresAt).toISOString() })) };
    },

    getDownload: downloads.getDownload,
  };
}
export type ProductService = ReturnType<typeof createProductService>;

/** A method of another domain's service, bound to it; a clear error when that service lacks it. */
export function port<S extends object, K extends keyof S>(service: S, key: K, domain: string): NonNullable<S[K]> {
  const fn = service[key];
  if (typeof fn !== 'function') throw new Error(`The ${domain} service has no ${String(key)}(); it is not wired in yet`);
  return (fn as (...args: unknown[]) => unknown).bind(service) as NonNullable<S[K]>;
}
