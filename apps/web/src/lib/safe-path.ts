import { SafePathSchema } from '@portal/contract';

/** The value when it is a same-origin path (SafePathSchema), otherwise null. */
export function safePath(value: string | null | undefined): string | null {
  if (!value) return null;
  return SafePathSchema.safeParse(value).success ? value : null;
}

/** The `to` query parameter of a location's search string, when safe. */
export function safeToParam(search: URLSearchParams): string | null {
  return safePath(search.get('to'));
}

/** `/login?to=...` for the page the visitor wanted. */
export function loginPathFor(target: string): string {
  return `/login?to=${encodeURIComponent(target)}`;
}
