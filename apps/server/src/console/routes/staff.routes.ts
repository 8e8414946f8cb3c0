import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddStaffBodySchema,
  ErrorSchema,
  ListStaffAuditQuerySchema,
  StaffAuditPageSchema,
  StaffListSchema,
  StaffParamsSchema,
  StaffActionBodySchema,
  StaffResponseSchema,
  UpdateStaffBodySchema,
} from '@portal/contract';
import { at, guardedResponses } from '../staff-guard';
import type { StaffFactors } from '../staff-factors';
import type { StaffService } from '../staff.service';

export type StaffRoutesDeps = {
  staff: Pick<StaffService, 'list' | 'add' | 'setRole' | 'remove' | 'listAudit'>;
  factors: Pick<StaffFactors, 'resetFactors'>;
};

/** Owners manage the staff; everyone reads the staff audit log. */
export async function staffRoutes(app: FastifyInstance, { staff, factors }: StaffRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...at('listStaff'),
    schema: { summary: 'The staff', response: { 200: StaffListSchema, ...guardedResponses } },
    handler: async () => ({ items: await staff.list() }),
  });

  r.route({
    ...at('addStaff'),
    schema: {
      summary: 'Add a staff member (or bring a removed one back)',
      body: AddStaffBodySchema,
      response: { 201: StaffResponseSchema, 400: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) =>
      reply.status(201).send({ staff: await staff.add(req.body.email, req.body.role, req.staffActor, req.body.reason) }),
  });

  r.route({
    ...at('updateStaff'),
    schema: {
      summary: "Change a staff member's role (an install keeps at least one owner)",
      params: StaffParamsSchema,
      body: UpdateStaffBodySchema,
      response: { 200: StaffResponseSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => ({ staff: await staff.setRole(req.params.id, req.body.role, req.staffActor, req.body.reason) }),
  });

  r.route({
    ...at('removeStaff'),
    schema: {
      summary: 'Remove a staff member: their sessions and sign-in links end (the last owner cannot be removed)',
      params: StaffParamsSchema,
      body: StaffActionBodySchema,
      response: { 204: z.null(), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      await staff.remove(req.params.id, req.staffActor, req.body.reason);
      return reply.status(204).send(null);
    },
  });

  r.route({
    ...at('resetStaffFactors'),
    schema: {
      summary: "Reset another member's second factors and recovery codes: their sessions end",
      params: StaffParamsSchema,
      body: StaffActionBodySchema,
      response: { 204: z.null(), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, ...guardedResponses },
    },
    handler: async (req, reply) => {
      await factors.resetFactors(req.params.id, req.staffActor, req.body.reason);
      return reply.status(204).send(null);
    },
  });

  r.route({
    ...at('listStaffAudit'),
    schema: {
      summary: 'The staff audit log, newest first (optionally of one customer)',
      querystring: ListStaffAuditQuerySchema,
      response: { 200: StaffAuditPageSchema, 400: ErrorSchema, ...guardedResponses },
    },
    handler: async (req) => staff.listAudit(req.query),
  });
}
