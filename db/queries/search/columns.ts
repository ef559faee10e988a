// The columns of a listing the public may see: one list. Drizzle's selects read it as it is; the raw statements
// (the ranked search, the popular order) select its SQL names (rawColumns), and fromRaw reads their rows back into
// the same row, so every sort answers the same keys.
import { sql, type SQL } from "drizzle-orm";
import { listings, type ListingRow } from "../../schema";

export const publicColumns = {
  id: listings.id,
  slug: listings.slug,
  name: listings.name,
  description: listings.description,
  categories: listings.categories,
  price: listings.price,
  verified: listings.verified,
  serverUrl: listings.serverUrl,
  websiteUrl: listings.websiteUrl,
  createdAt: listings.createdAt,
  updatedAt: listings.updatedAt,
  // Provenance: submitted here or imported (lib/ingest), with the upstream entry's name, page and status.
  source: listings.source,
  upstreamName: listings.upstreamName,
  upstreamUrl: listings.upstreamUrl,
  upstreamStatus: listings.upstreamStatus,
  // The name the registry API lists it under when it is not "<namespace>/<slug>" (an imported entry's).
  registryName: listings.registryName,
};

type PublicColumns = typeof publicColumns;

/** The columns of a listing the public may see, as stored. */
export type PublicListingRow = Pick<ListingRow, keyof PublicColumns>;

/** A value as the driver answers a raw statement: numerics may come as text, timestamps as text. */
type RawValue<T> = T extends Date ? string | Date : T extends number ? string | number : T;

/** A raw statement's row of the public columns, under their SQL names (snake_case). */
export type RawListingRow = {
  [K in keyof PublicColumns as PublicColumns[K]["_"]["name"]]: RawValue<PublicListingRow[K]>;
};

/** The ranked search's row: the public columns and the number of matches. */
export type RankedRow = RawListingRow & { total: number | string };

/** The public columns' SQL names for a raw select, each qualified by `table` when given. */
export function rawColumns(table?: string): SQL {
  return sql.raw(
    Object.values(publicColumns)
      .map((column) => (table ? `${table}.${column.name}` : column.name))
      .join(", "),
  );
}

/** A raw statement's row as drizzle would have answered it. A column the statement left out is a bug: it throws. */
export function fromRaw(raw: RawListingRow): PublicListingRow {
  const values = raw as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(publicColumns)) {
    if (!(column.name in values)) throw new Error(`The raw statement's row lacks the column ${column.name}.`);
    const value = values[column.name];
    if (value === null) row[key] = null;
    else if (column.dataType === "date") row[key] = new Date(value as string | Date);
    else if (column.dataType === "number") row[key] = Number(value);
    else row[key] = value;
  }
  return row as PublicListingRow;
}
