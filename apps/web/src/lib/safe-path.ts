import { useEffect, useState } from 'react';
import { loadSchemas, loadedSchemas } from './lazy-schemas';

function check(value: string | null | undefined, schemas: NonNullable<ReturnType<typeof loadedSchemas>>): string | null {
  if (!value) return null;
  return schemas.SafePathSchema.safeParse(value).success ? value : null;
}

/** The value when it is a same-origin path (the contract's SafePathSchema), otherwise null. */
export async function safePath(value: string | null | undefined): Promise<string | null> {
  if (!value) return null;
  return check(value, await loadSchemas());
}

/**
 * `safePath` for rendering: null without a value, `undefined` while the schema loads (a moment,
 * and only when there is a value to check), then the checked value or null.
 */
export function useSafePath(value: string | null | undefined): string | null | undefined {
  const [, setLoaded] = useState(() => loadedSchemas() !== null);
  const needed = Boolean(value) && loadedSchemas() === null;
  useEffect(() => {
    if (!needed) return;
    let live = true;
    void loadSchemas().then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [needed]);
  if (!value) return null;
  const schemas = loadedSchemas();
  return schemas ? check(value, schemas) : undefined;
}

/** `/login?to=...` for the page the visitor wanted. */
export function loginPathFor(target: string): string {
  return `/login?to=${encodeURIComponent(target)}`;
}
