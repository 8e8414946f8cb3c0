import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ActionBodySchema,
  ActionResultSchema,
  ConsoleLicenseParamsSchema,
  ConsoleNodeParamsSchema,
  ConsoleInvoiceParamsSchema,
  CreditInvoiceBodySchema,
  ConsoleSubscriptionParamsSchema,
  CustomerParamsSchema,
  ErrorSchema,
  ExtendLicenseBodySchema,
  IssueLicenseBodySchema,
  RefundInvoiceBodySchema,
  SuspendLicenseBodySchema,
  UpdateCustomerBillingDetailsBodySchema,
} from '@portal/contract';
import type { StaffActions } from '../staff-actions';
import type { StaffActor } from '../staff.service';
import { at, guardedResponses } from '../staff-guard';

const answers = {
  200: ActionResultSchema,
  400: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  ...guardedResponses,
} as const;

/** Who acts and why: every action's first argument, from the staff session and the body's reason. */
const by = (req: { staffActor: StaffActor; body: { reason: string } }) => ({ actor: req.staffActor, reason: req.body.reason });

/** Staff actions on a customer's licenses, nodes, subscriptions and account: each with a reason. */
export async function actionsRoutes(app: FastifyInstance, { actions }: { actions: StaffActions }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const license = { params: ConsoleLicenseParamsSchema, response: answers };
  const customer = { params: CustomerParamsSchema, response: answers };
  const subscription = { params: ConsoleSubscriptionParamsSchema, body: ActionBodySchema, response: answers };
  const invoice = { params: ConsoleInvoiceParamsSchema, response: answers };

  r.route({
    ...at('suspendLicense'),
    schema: {
      summary: 'Suspend a license (with an optional message the customer sees in the portal)',
      ...license,
      body: SuspendLicenseBodySchema,
    },
    handler: async (req) => actions.suspendLicense(by(req), req.params.licenseKey, req.body.customerMessage),
  });
  r.route({
    ...at('resumeLicense'),
    schema: { summary: 'Resume a suspended license', ...license, body: ActionBodySchema },
    handler: async (req) => actions.resumeLicense(by(req), req.params.licenseKey),
  });
  r.route({
    ...at('extendLicense'),
    schema: { summary: "Move a license's expiry N days later", ...license, body: ExtendLicenseBodySchema },
    handler: async (req) => actions.extendLicense(by(req), req.params.licenseKey, req.body.days),
  });
  r.route({
    ...at('releaseNode'),
    schema: {
      summary: 'Release a node from its license',
      params: ConsoleNodeParamsSchema,
      body: ActionBodySchema,
      response: answers,
    },
    handler: async (req) => actions.releaseNode(by(req), req.params.licenseKey, req.params.nodeId),
  });
  r.route({
    ...at('issueLicense'),
    schema: { summary: 'Issue a complimentary license', ...customer, body: IssueLicenseBodySchema },
    handler: async (req) => actions.issueLicense(by(req), req.params.userId, req.body.maxNodes, req.body.days),
  });
  r.route({
    ...at('sendSignInLink'),
    schema: { summary: 'E-mail the customer a sign-in link', ...customer, body: ActionBodySchema },
    handler: async (req) => actions.sendSignInLink(by(req), req.params.userId),
  });
  r.route({
    ...at('endSessions'),
    schema: { summary: "End every one of the customer's sessions", ...customer, body: ActionBodySchema },
    handler: async (req) => actions.endSessions(by(req), req.params.userId),
  });
  r.route({
    ...at('cancelAtPeriodEnd'),
    schema: { summary: 'Cancel a subscription at the end of its period', ...subscription },
    handler: async (req) => actions.cancelAtPeriodEnd(by(req), req.params.subscriptionId),
  });
  r.route({
    ...at('reactivateSubscription'),
    schema: { summary: 'Undo a cancellation before the period ends', ...subscription },
    handler: async (req) => actions.reactivateSubscription(by(req), req.params.subscriptionId),
  });
  r.route({
    ...at('cancelNow'),
    schema: { summary: 'End a subscription now (its license expires now)', ...subscription },
    handler: async (req) => actions.cancelNow(by(req), req.params.subscriptionId),
  });
  r.route({
    ...at('retryPayment'),
    schema: {
      summary: "Charge a failing payment's open invoice now, once (402 when declined again)",
      ...subscription,
      response: { ...answers, 402: ErrorSchema },
    },
    handler: async (req) => actions.retryPayment(by(req), req.params.subscriptionId),
  });
  r.route({
    ...at('refundInvoice'),
    schema: { summary: 'Refund an invoice, wholly or in part, to what paid it', ...invoice, body: RefundInvoiceBodySchema },
    handler: async (req) => actions.refundInvoice(by(req), req.params.invoiceId, req.body.amount),
  });
  r.route({
    ...at('creditInvoice'),
    schema: {
      summary: "Credit part of an invoice to the customer's balance (taken off the next payments)",
      ...invoice,
      body: CreditInvoiceBodySchema,
    },
    handler: async (req) => actions.creditInvoice(by(req), req.params.invoiceId, req.body.amount),
  });
  r.route({
    ...at('updateCustomerBillingDetails'),
    schema: {
      summary: "Replace the customer's billing details (later invoices only; a new EU VAT number is checked with VIES)",
      ...customer,
      body: UpdateCustomerBillingDetailsBodySchema,
    },
    handler: async (req) => actions.updateBillingDetails(by(req), req.params.userId, req.body.details),
  });
  r.route({
    ...at('deleteCustomer'),
    schema: { summary: 'Delete the customer on request (the self-service deletion)', ...customer, body: ActionBodySchema },
    handler: async (req) => actions.deleteCustomer(by(req), req.params.userId),
  });
}
