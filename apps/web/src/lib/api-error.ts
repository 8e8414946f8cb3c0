import { TEXT, type ApiError } from '@portal/contract';

/** The HTTP status of an RTK Query error, or null for network and client-side errors. */
export function errorStatus(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return null;
}

/** The server's error body (`{ message, code }`), when the error carries one. */
export function errorBody(error: unknown): Partial<ApiError> | null {
  if (error && typeof error === 'object' && 'data' in error && error.data && typeof error.data === 'object') {
    return error.data as Partial<ApiError>;
  }
  return null;
}

/** `error.data.message`, or the specification's fallback text. */
export function errorMessage(error: unknown): string {
  const message = errorBody(error)?.message;
  return typeof message === 'string' && message.trim() !== '' ? message : TEXT.unknownError;
}
