import type * as SchemasModule from './schemas';

type Schemas = typeof SchemasModule;

let schemas: Schemas | null = null;
let loading: Promise<Schemas> | null = null;

/**
 * Loads the contract's validation schemas on first use. zod is a quarter of the sign-in page's
 * JavaScript, and a guest who only looks at the page never needs it; the billing page's forms load
 * theirs the same way, off the page's first paint (docs/decisions/140).
 */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import('./schemas').then((m) => (schemas = m));
  return loading;
}

/** The schemas when they are already loaded, else null. */
export function loadedSchemas(): Schemas | null {
  return schemas;
}
