import { sql, type SQL } from 'drizzle-orm';

/**
 * A constant of the domain's rules written into SQL as a literal, not a parameter: a partial index's
 * predicate can only match a literal (ADR 121). Only for the code's own constants, never for input.
 */
export const sqlLiteral = (value: string): SQL => sql.raw(`'${value.replace(/'/g, "''")}'`);

/** Constants as a literal list for `in (…)`, each as `sqlLiteral` writes it. */
export const sqlLiteralList = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sqlLiteral(v)),
    sql`, `,
  );
