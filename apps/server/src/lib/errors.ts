import type { ErrorCode, ErrorIssue } from '@portal/contract';

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHENTICATED: 401,
  RECENT_SIGN_IN_REQUIRED: 401,
  FORBIDDEN: 403,
  SECOND_FACTOR_REQUIRED: 403,
  SECOND_FACTOR_INVALID: 400,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NODE_LIMIT_REACHED: 409,
  LICENSE_INACTIVE: 409,
  LINK_EXPIRED: 410,
  LINK_USED: 410,
  CARD_DECLINED: 402,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The one error services throw; the error handler turns it into `{ message, code, issues? }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { issues?: ErrorIssue[]; retryAfterSeconds?: number; status?: number } = {},
  ) {
    super(message);
    this.status = extra.status ?? STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found`);
