/** The first message of each field among validation issues (the contract's zod issues or the API's). */
export function issuesByField<K extends string>(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  fields: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && (fields as readonly string[]).includes(key) && !out[key as K]) out[key as K] = issue.message;
  }
  return out;
}
