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
} from '@portal/contract';
import type { StaffActions } from '../staff-actions';
import { at, guardedResponses } from '../staff-guard';

const answers = {
  200: ActionResultSchema,
  400: ErrorSchema,
  404: ErrorSchema,
  409: ErrorSchema,
  ...guardedResponses,
} as const;

/** Staff actions on a customer's licenses, nodes, subscriptions and account: each with a reason. */
export async function actionsRoutes(app: FastifyInstance, { actions }: { actions: StaffActions }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const license = { params: ConsoleLicenseParamsSchema, response: answers };
  const customer = { params: CustomerParamsSchema, response: answers };
  const subscription = { params: ConsoleSubscriptionParamsSchema, body: ActionBodySchema, response: answers };

  r.route({
    ...at('suspendLicense'),
    schema: { summary: 'Suspend a license', ...license, body: ActionBodySchema },
    handler: async (req) => actions.suspendLicense({ actor: req.staffActor, reason: req.body.reason }, req.params.licenseKey),
  });
  r.route({
    ...at('resumeLicense'),
    schema: { summary: 'Resume a suspended license', ...license, body: ActionBodySchema },
    handler: async (req) => actions.resumeLicense({ actor: req.staffActor, reason: req.body.reason }, req.params.licenseKey),
  });
  r.route({
    ...at('extendLicense'),
    schema: { summary: "Move a license's expiry N days later", ...license, body: ExtendLicenseBodySchema },
    handler: async (req) =>
      actions.extendLicense({ actor: req.staffActor, reason: req.body.reason }, req.params.licenseKey, req.body.days),
  });
  r.route({
    ...at('releaseNode'),
    schema: {
      summary: 'Release a node from its license',
      params: ConsoleNodeParamsSchema,
      body: ActionBodySchema,
      response: answers,
    },
    handler: async (req) =>
      actions.releaseNode({ actor: req.staffActor, reason: req.body.reason }, req.params.licenseKey, req.params.nodeId),
  });
  r.route({
    ...at('issueLicense'),
    schema: { summary: 'Issue a complimentary license', ...customer, body: IssueLicenseBodySchema },
    handler: async (req) =>
      actions.issueLicense(
        { actor: req.staffActor, reason: req.body.reason },
        req.params.userId,
        req.body.maxNodes,
        req.body.days,
      ),
  });
  r.route({
    ...at('sendSignInLink'),
    schema: { summary: 'E-mail the customer a sign-in link', ...customer, body: ActionBodySchema },
    handler: async (req) => actions.sendSignInLink({ actor: req.staffActor, reason: req.body.reason }, req.params.userId),
  });
  r.route({
    ...at('endSessions'),
    schema: { summary: "End every one of the customer's sessions", ...customer, body: ActionBodySchema },
    handler: async (req) => actions.endSessions({ actor: req.staffActor, reason: req.body.reason }, req.params.userId),
  });
  r.route({
    ...at('cancelAtPeriodEnd'),
    schema: { summary: 'Cancel a subscription at the end of its period', ...subscription },
    handler: async (req) =>
      actions.cancelAtPeriodEnd({ actor: req.staffActor, reason: req.body.reason }, req.params.subscriptionId),
  });
  r.route({
    ...at('reactivateSubscription'),
    schema: { summary: 'Undo a cancellation before the period ends', ...subscription },
    handler: async (req) =>
      actions.reactivateSubscription({ actor: req.staffActor, reason: req.body.reason }, req.params.subscriptionId),
  });
  r.route({
    ...at('cancelNow'),
    schema: { summary: 'End a subscription now (its license expires now)', ...subscription },
    handler: async (req) => actions.cancelNow({ actor: req.staffActor, reason: req.body.reason }, req.params.subscriptionId),
  });
  r.route({
    ...at('refundInvoice'),
    schema: {
      summary: 'Refund an invoice, wholly or in part, to what paid it',
      params: ConsoleInvoiceParamsSchema,
      body: RefundInvoiceBodySchema,
      response: answers,
    },
    handler: async (req) =>
      actions.refundInvoice({ actor: req.staffActor, reason: req.body.reason }, req.params.invoiceId, req.body.amount),
  });
  r.route({
    ...at('creditInvoice'),
    schema: {
      summary: "Credit part of an invoice to the customer's balance (taken off the next payments)",
      params: ConsoleInvoiceParamsSchema,
      body: CreditInvoiceBodySchema,
      response: answers,
    },
    handler: async (req) =>
      actions.creditInvoice({ actor: req.staffActor, reason: req.body.reason }, req.params.invoiceId, req.body.amount),
  });
  r.route({
    ...at('deleteCustomer'),
    schema: { summary: 'Delete the customer on request (the self-service deletion)', ...customer, body: ActionBodySchema },
    handler: async (req) => actions.deleteCustomer({ actor: req.staffActor, reason: req.body.reason }, req.params.userId),
  });
}
