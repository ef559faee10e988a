// Marketplace filters: one schema for the page's URL query, the JSON API and the registry tools.
import { z } from "zod";

import {
  CATALOGUE_PRICES,
  CATALOGUE_SORTS,
  CATALOGUE_SOURCES,
  defaultSort,
  type CatalogueFilters,
  type CatalogueSort,
} from "@agora-mcp/protocol";

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** True for text PostgreSQL cannot hold or compare: a NUL byte, or a lone UTF-16 surrogate. */
export function hasUnstorableText(value: string): boolean {
  return value.includes("\u0000") || !value.isWellFormed();
}

/** Optional trimmed text with a length cap; the message names the parameter as its caller spells it. */
export const boundedText = (max: number, name: string) =>
  z.preprocess(
    first,
    z
      .string()
      .trim()
      .max(max, `${name} must be at most ${max} characters.`)
      .refine((v) => !hasUnstorableText(v), `${name} must not contain NUL bytes or broken characters.`)
      .optional()
      .default(""),
  );

export const filtersShape = {
  q: boundedText(200, "q"),
  category: z.preprocess(
    (v) => (first(v) === "all" ? "" : first(v)),
    z
      .string()
      .trim()
      .max(100, "category must be at most 100 characters.")
      .refine((v) => !hasUnstorableText(v), "category must not contain NUL bytes or broken characters.")
      .optional()
      .default(""),
  ),
  price: z.preprocess(
    first,
    z
      .enum(CATALOGUE_PRICES, { message: `price must be one of: ${CATALOGUE_PRICES.join(", ")}.` })
      .optional()
      .default("all"),
  ),
  source: z.preprocess(
    first,
    z
      .enum(CATALOGUE_SOURCES, { message: `source must be one of: ${CATALOGUE_SOURCES.join(", ")}.` })
      .optional()
      .default("all"),
  ),
  // No default here: it depends on the search text (defaultSort), so callers resolve it with withDefaultSort.
  sort: z.preprocess(
    first,
    z.enum(CATALOGUE_SORTS, { message: `sort must be one of: ${CATALOGUE_SORTS.join(", ")}.` }).optional(),
  ),
};

/** Filters with the sort the text implies when none was chosen. */
export function withDefaultSort<T extends { q: string; sort?: CatalogueSort }>(
  filters: T,
): Omit<T, "sort"> & { sort: CatalogueSort } {
  return { ...filters, sort: filters.sort ?? defaultSort(filters.q) };
}

/** The page is lenient: an unknown value falls back to its default instead of an error page. */
export function parsePageQuery(query: Record<string, string | string[] | undefined>) {
  const pick = <T>(schema: z.ZodType<T>, value: unknown, fallback: T): T => {
    const r = schema.safeParse(value);
    return r.success ? r.data : fallback;
  };
  const q = pick(filtersShape.q, query.q, "");
  const filters: CatalogueFilters = {
    q,
    category: pick(filtersShape.category, query.category, ""),
    price: pick(filtersShape.price, query.price, "all"),
    source: pick(filtersShape.source, query.source, "all"),
    sort: pick(filtersShape.sort, query.sort, undefined) ?? defaultSort(q),
  };
  const view: "grid" | "list" = first(query.view) === "list" ? "list" : "grid";
  // Text no listing can hold (a NUL byte) is not a lenient fallback case: the page answers 404.
  const unstorable = Object.values(query).some((v) =>
    [v].flat().some((x) => typeof x === "string" && hasUnstorableText(x)),
  );
  const pageNumber = Number(first(query.page));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 100_000 ? pageNumber : 1;
  return { filters, view, page, unstorable };
}

/** The JSON API is strict: a bad parameter is a 400 with a message naming it. */
export const apiQuerySchema = z
  .object({
    ...filtersShape,
    limit: z.preprocess(
      first,
      z.coerce
        .number({ message: "limit must be a number." })
        .int("limit must be a whole number.")
        .min(1, "limit must be at least 1.")
        .max(1000, "limit must be at most 1000.")
        .optional()
        .default(100),
    ),
    page: z.preprocess(
      first,
      z.coerce
        .number({ message: "page must be a number." })
        .int("page must be a whole number.")
        .min(1, "page must be at least 1.")
        .optional(),
    ),
    cursor: z.preprocess(first, z.string().max(200).optional()),
  })
  .strict();

/** Opaque paging cursor: the offset of the next row. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m ? Number(m[1]) : null;
}
