import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConsoleInvoiceParamsSchema, ErrorSchema } from '@portal/contract';
import type { BillingService } from '../../modules/billing/billing.service';
import { at, guardedResponses } from '../staff-guard';

/** Documents staff download: a customer's invoice as the same PDF the customer gets. */
export async function documentsRoutes(
  app: FastifyInstance,
  { billing }: { billing: Pick<BillingService, 'invoicePdfForStaff'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    ...at('downloadInvoicePdf'),
    schema: {
      summary: "A customer's invoice (built-in engine) as its PDF",
      params: ConsoleInvoiceParamsSchema,
      response: { 400: ErrorSchema, 404: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      const doc = await billing.invoicePdfForStaff(req.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${doc.filename}"`)
        .send(doc.pdf as never);
    },
  });
}
