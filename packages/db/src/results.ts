// What drivers answer, read the same way on PGlite and node-postgres.

/** The rows of `db.execute(…)`: an array on some drivers, `{ rows }` on others. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/** A database error's fields (SQLSTATE `code`, the `constraint` it broke, …). */
export interface DatabaseErrorFields {
  code: string;
  message?: string;
  detail?: string;
  constraint?: string;
}

/** The driver's error under drizzle's wrapper ("Failed query: …" with the driver error as `cause`). */
export function databaseErrorOf(e: unknown): DatabaseErrorFields | undefined {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (typeof (cur as { code?: unknown }).code === 'string') return cur as DatabaseErrorFields;
  }
  return undefined;
}

/** True when `e` is a unique violation (23505), of `constraint` when named. */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = databaseErrorOf(e);
  return err?.code === '23505' && (constraint === undefined || err.constraint === constraint);
}
