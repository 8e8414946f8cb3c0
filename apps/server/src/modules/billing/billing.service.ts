import type { Price } from '@portal/contract';
import { createBillingContext, type BillingDeps } from './billing-context';
import { createBillingDetails } from './billing-details';
import { createCards } from './cards';
import { createCheckout } from './checkout';
import { createInvoicesAndExport } from './invoices-and-export';
import { createPayOpenInvoice } from './pay-open-invoice';
import { createProviderSync } from './provider-sync';
import { createProviderTax } from './provider-tax';
import { createRefunds } from './refunds';
import { createRenewals } from './renewals';
import { createSubscriptionChanges } from './subscription-changes';

export { CHECKOUT_DEDUP_MS } from './checkout';
export { RENEWAL_INTERVAL_MS, type RetriedNow } from './renewals';
export { toSubscription, type BillingLicenses, type BillingUser } from './billing-context';

/**
 * Billing: the customer's cards, subscriptions and invoices, behind one payment gateway (the local
 * engine or Stripe, `providers/billing/`). Each use case lives in a file of its own and shares the
 * billing context (gateways, the license following the subscription, receipts); the subscription's
 * rules are in lifecycle.ts. This puts them together under the names the routes, the account and
 * the products services call.
 */
export function createBillingService(deps: BillingDeps) {
  const ctx = createBillingContext(deps);
  const renewals = createRenewals(ctx);
  const cards = createCards(ctx);
  const changes = createSubscriptionChanges(ctx, renewals);
  const documents = createInvoicesAndExport(ctx, cards);
  const sync = createProviderSync(ctx, cards);
  const refunds = createRefunds(ctx);
  const providerTax = createProviderTax(ctx);
  const details = createBillingDetails(ctx, providerTax);
  const purchase = createCheckout(ctx, providerTax);

  return {
    provider: ctx.gateway.kind,
    prices(): Price {
      // The built-in engine adds tax for a VAT-registered seller, Stripe Tax for Stripe: the web app then asks for the checkout's tax.
      const taxAdded = (deps.config.seller.vatRegistered && ctx.gateway.kind === 'local') || providerTax.on;
      return { ...deps.config.pricing, ...(taxAdded ? { taxAdded: true as const } : {}) };
    },

    getBillingDetails: details.getBillingDetails,
    updateBillingDetails: details.updateBillingDetails,
    /** Stripe Tax waits for the customer's address before it applies to their subscription. */
    taxAddressNeeded: (userId: string) => providerTax.addressNeeded(deps.db, userId),

    listPaymentMethods: cards.listPaymentMethods,
    createSetupIntent: cards.createSetupIntent,
    confirmLocalSetup: cards.confirmLocalSetup,
    removePaymentMethod: cards.removePaymentMethod,

    checkout: purchase.checkout,
    previewCheckout: purchase.previewCheckout,
    listSubscriptions: documents.listSubscriptions,
    changeQuantity: changes.changeQuantity,
    changeInterval: changes.changeInterval,
    cancel: changes.cancel,
    reactivate: changes.reactivate,
    cancelNow: changes.cancelNow,
    preview: changes.preview,
    payOpenInvoice: createPayOpenInvoice(ctx, renewals, cards),

    listInvoices: documents.listInvoices,
    invoiceDocument: documents.invoiceDocument,
    invoicePdf: documents.invoicePdf,
    invoicePdfForStaff: documents.invoicePdfForStaff,
    documentAttachment: documents.documentAttachment,
    creditNotePdf: documents.creditNotePdf,
    exportForUser: documents.exportForUser,
    cancelAllNowForUser: documents.cancelAllNowForUser,
    anonymiseForUser: documents.anonymiseForUser,
    refundInvoice: refunds.refundInvoice,
    creditInvoice: refunds.creditInvoice,

    handleWebhook: sync.handleWebhook,

    retryPaymentNow: renewals.retryNow,
    runRenewals: renewals.runRenewals,
    runNotices: renewals.runNotices,
    startWorkers: renewals.startWorkers,
    stopWorkers: renewals.stopWorkers,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
