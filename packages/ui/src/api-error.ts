import { TEXT, type ApiError } from '@portal/contract';

/** Shown after 'Error: ' when the request never reached the portal (offline, DNS, timeout). */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the portal. Check your connection and try again.';

/** The HTTP status of an RTK Query error, or null for network and client-side errors. */
export function errorStatus(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return null;
}

/** True when RTK Query got no answer at all: fetch failed or timed out, so retrying may help. */
export function isNetworkError(error: unknown): boolean {
  return (
    !!error &&
    typeof error === 'object' &&
    'status' in error &&
    (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR')
  );
}

/** The server's error body (`{ message, code }`), when the error carries one. */
export function errorBody(error: unknown): Partial<ApiError> | null {
  if (error && typeof error === 'object' && 'data' in error && error.data && typeof error.data === 'object') {
    return error.data as Partial<ApiError>;
  }
  return null;
}

/**
 * `error.data.message`; for a request that never reached the server, what to do about it (the
 * browser's own 'Failed to fetch' says nothing useful); otherwise the fallback TEXT.unknownError.
 */
export function errorMessage(error: unknown): string {
  const message = errorBody(error)?.message;
  if (typeof message === 'string' && message.trim() !== '') return message;
  return isNetworkError(error) ? NETWORK_ERROR_MESSAGE : TEXT.unknownError;
}
