// Raw statements answer in each driver's own shape: postgres-js an array of rows, PGlite `{ rows }`.

/** The rows of a `db.execute(…)` result, whichever driver ran it. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}
