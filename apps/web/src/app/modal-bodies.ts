import { lazy } from 'react';
import type { ModalBodies } from '../components/modal-host';

/**
 * The body of each modal id (MODAL_IDS), loaded on first use. The host titles them from
 * MODAL_TITLES. An id without a body renders no modal.
 */
export const modalBodies: ModalBodies = {
  ChangeQuantityModal: lazy(() =>
    import('../features/billing/components/change-quantity-modal').then((m) => ({ default: m.ChangeQuantityModal })),
  ),
  UpdateBillingPeriodModal: lazy(() =>
    import('../features/billing/components/update-billing-period-modal').then((m) => ({
      default: m.UpdateBillingPeriodModal,
    })),
  ),
  CancelSubscriptionModal: lazy(() =>
    import('../features/billing/components/cancel-subscription-modal').then((m) => ({
      default: m.CancelSubscriptionModal,
    })),
  ),
  ReactivateSubscriptionModal: lazy(() =>
    import('../features/billing/components/reactivate-subscription-modal').then((m) => ({
      default: m.ReactivateSubscriptionModal,
    })),
  ),
};
