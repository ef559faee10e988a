// A table's row carried as JSON inside a larger statement (db/queries/listing-facts.ts reads every fact of a page of
// listings in one statement), and back into the row Drizzle would have returned. Exact for every column type the
// schema uses: 64-bit integers and numerics travel as text (a JSON number would round past 2^53: amounts are
// money), timestamps as ISO strings with their offset, jsonb as itself.
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

// Column kinds whose JSON number would lose digits: sent as text, read back by the column's own mapping.
const AS_TEXT = new Set(["PgBigInt64", "PgBigInt53", "PgNumeric", "PgNumericNumber", "PgNumericBigInt"]);
// Kinds whose JSON form reads back exactly as the driver's would. Others (a timestamp kept as a string, say, whose
// JSON spelling differs from the driver's) are refused rather than returned subtly different.
const SUPPORTED = new Set([
  ...AS_TEXT,
  "PgUUID",
  "PgText",
  "PgEnumColumn",
  "PgBoolean",
  "PgInteger",
  "PgSmallInt",
  "PgTimestamp",
  "PgDateString",
  "PgJsonb",
]);

/** `jsonb_build_object` of every column of `table` under `alias`, keyed by the TypeScript field names. */
export function rowJson(table: PgTable, alias: string): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => {
    if (!SUPPORTED.has(column.columnType) || !/^\w+$/.test(key))
      throw new Error(`rowJson: column ${key} (${column.columnType}) is not supported`);
    const ref = sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`;
    // The key is a schema field name (checked above), written inline: a constant, not a parameter.
    return sql`${sql.raw(`'${key}'`)}, ${AS_TEXT.has(column.columnType) ? sql`${ref}::text` : ref}`;
  });
  return sql`jsonb_build_object(${sql.join(pairs, sql`, `)})`;
}

/** The row `rowJson` described, as Drizzle returns it from a select of the table. */
export function rowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[key];
    // jsonb is already parsed; its own mapping would parse a JSON string value a second time.
    row[key] =
      value === null || value === undefined
        ? null
        : column.dataType === "json"
          ? value
          : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}
