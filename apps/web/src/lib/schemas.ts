// The contract's zod schemas that the first screens need. Only ever imported dynamically (through
// lazy-schemas.ts), so zod is not part of the sign-in page's first load, nor of the billing page's
// (its forms load their schemas once they show: docs/decisions/140).
export {
  CheckoutBodySchema,
  ConfirmationSchema,
  EmailSchema,
  SafePathSchema,
  UpdateBillingDetailsBodySchema,
} from '@portal/contract';
