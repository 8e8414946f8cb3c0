import type { ModalBodies } from '../components/modal-host';

/**
 * The body of each modal id (MODAL_IDS). Features register theirs here as lazy components, e.g.
 *   ChangeQuantityModal: lazy(() =>
 *     import('../features/billing/components/change-quantity-modal').then((m) => ({ default: m.ChangeQuantityModal }))),
 * An id without a body renders no modal.
 */
export const modalBodies: ModalBodies = {};
