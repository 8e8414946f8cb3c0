// The contract's zod schemas that the first screens need. Only ever imported dynamically (through
// lazy-schemas.ts), so zod is not part of the sign-in page's first load.
export { EmailSchema, SafePathSchema } from '@portal/contract';
