import type { z } from 'zod';
import {
  ActionBodySchema,
  CreditInvoiceBodySchema,
  ExtendLicenseBodySchema,
  IssueLicenseBodySchema,
  RefundInvoiceBodySchema,
  SuspendLicenseBodySchema,
} from '@portal/contract';
import type { ActionRoute } from '../api';

export interface ActionValues extends Record<string, unknown> {
  reason: string;
  days: number | string;
  maxNodes: number | string;
  /** In the currency's major unit (dollars), as people type money. */
  amount: number | string;
  confirmEmail: string;
  /** A suspension's words to the customer (the portal shows them); empty for none. */
  customerMessage: string;
}

/** The contract's body schema of each action. */
export function bodySchema(route: ActionRoute): z.ZodType {
  switch (route) {
    case 'suspendLicense':
      return SuspendLicenseBodySchema;
    case 'extendLicense':
      return ExtendLicenseBodySchema;
    case 'issueLicense':
      return IssueLicenseBodySchema;
    case 'refundInvoice':
      return RefundInvoiceBodySchema;
    case 'creditInvoice':
      return CreditInvoiceBodySchema;
    default:
      return ActionBodySchema;
  }
}

const number = (v: number | string) => (v === '' ? undefined : Number(v));

/** The body sent for the form's values: the reason and the fields this action takes. */
export function actionBody(route: ActionRoute, v: ActionValues): Record<string, unknown> {
  switch (route) {
    case 'suspendLicense':
      // An empty message is no message: the portal then shows its own words alone.
      return { reason: v.reason, ...(v.customerMessage.trim() === '' ? {} : { customerMessage: v.customerMessage }) };
    case 'extendLicense':
      return { reason: v.reason, days: number(v.days) };
    case 'issueLicense':
      return { reason: v.reason, days: number(v.days), maxNodes: number(v.maxNodes) };
    case 'refundInvoice':
    case 'creditInvoice': {
      const amount = number(v.amount);
      return { reason: v.reason, ...(amount === undefined ? {} : { amount: Math.round(amount * 100) }) };
    }
    default:
      return { reason: v.reason };
  }
}
