// The catalogue's filters and sorts, named once: the site's marketplace page, its registry tools and API, the
// database query, the agent client's search_servers and the kit read these lists. A new filter value or sort is
// added here; each surface then only presents it (a label, a sentence). No zod here: client components import it.

/** How a list of listings can be ordered. relevance needs search text; popular is the default without it. */
export const CATALOGUE_SORTS = ["relevance", "popular", "purchased", "newest", "name"] as const;
/** Free listings, paid ones, or both. */
export const CATALOGUE_PRICES = ["all", "free", "paid"] as const;
/** Where ingestion imports listings from: the official MCP Registry, or an x402 facilitator's discovery list. */
export const IMPORT_SOURCES = ["mcp-registry", "x402-discovery"] as const;
/** Where a listing came from: submitted to Agora, or imported from one of IMPORT_SOURCES (the listings table's `source`). */
export const LISTING_SOURCES = ["agora", ...IMPORT_SOURCES] as const;
/** The source filter: every source, or one of LISTING_SOURCES. */
export const CATALOGUE_SOURCES = ["all", ...LISTING_SOURCES] as const;

export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export type CataloguePrice = (typeof CATALOGUE_PRICES)[number];
export type CatalogueSource = (typeof CATALOGUE_SOURCES)[number];
export type ListingSource = (typeof LISTING_SOURCES)[number];
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** The order of a list without search text, and with it (unless another sort is chosen). */
export const BROWSE_SORT = "popular" satisfies CatalogueSort;
export const SEARCH_SORT = "relevance" satisfies CatalogueSort;

/** What each sort means, in one sentence a person or an agent reads (tool descriptions, the API's docs). */
export const CATALOGUE_SORT_MEANINGS: Record<CatalogueSort, string> = {
  relevance: "best matches first (the default with search text)",
  popular:
    "verified servers first, then by paying wallets and calls on chain in the last 30 days, then by name (the default without search text)",
  purchased: "most sales on chain in the last 30 days first",
  newest: "most recently listed first",
  name: "by name, A to Z",
};

/** What each source means. */
export const CATALOGUE_SOURCE_MEANINGS: Record<CatalogueSource, string> = {
  all: "every source (the default)",
  agora: "submitted to Agora",
  "mcp-registry": "found in the official MCP Registry",
  "x402-discovery": "found in an x402 facilitator's discovery list",
};

/** With search text the results come in relevance order unless another sort is chosen; without, popular. */
export function defaultSort(q: string | undefined): CatalogueSort {
  return q ? SEARCH_SORT : BROWSE_SORT;
}

/** A filter state as every surface reads it. `source` is optional: callers that do not filter by it (the sitemap's pages) leave it out. */
export type CatalogueFilters = {
  q: string;
  category: string;
  price: CataloguePrice;
  sort: CatalogueSort;
  source?: CatalogueSource;
};
