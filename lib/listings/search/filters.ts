// Marketplace filter types and URLs. No zod here: client components import this module.
export const SORTS = ["relevance", "popular", "purchased", "newest", "name"] as const;
export const PRICES = ["all", "free", "paid"] as const;
export const VIEWS = ["grid", "list"] as const;
/** Where listings came from: submitted to Agora, or found in the MCP Registry or an x402 discovery list. */
export const SOURCES = ["all", "agora", "mcp-registry", "x402-discovery"] as const;
export const SOURCE_LABELS: Record<SourceFilter, string> = { all: "All sources", agora: "Agora", "mcp-registry": "MCP Registry", "x402-discovery": "x402 discovery" };
export const PAGE_SIZE = 24;

export type Sort = (typeof SORTS)[number];
export type PriceFilter = (typeof PRICES)[number];
export type View = (typeof VIEWS)[number];
export type SourceFilter = (typeof SOURCES)[number];

/** `source` is optional: callers that do not filter by it (the sitemap's pages) leave it out. */
export type ListingFilters = { q: string; category: string; price: PriceFilter; sort: Sort; source?: SourceFilter };

/** With search text the results come in relevance order unless another sort is chosen; without, popular. */
export function defaultSort(q: string | undefined): Sort {
  return q ? "relevance" : "popular";
}

/** Query string for a filter state, leaving out defaults so URLs stay short and canonical. */
export function filtersToSearch(f: Partial<ListingFilters> & { view?: View; page?: number }): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.category) p.set("category", f.category);
  if (f.price && f.price !== "all") p.set("price", f.price);
  if (f.source && f.source !== "all") p.set("source", f.source);
  if (f.sort && f.sort !== defaultSort(f.q)) p.set("sort", f.sort);
  if (f.view && f.view !== "grid") p.set("view", f.view);
  if (f.page && f.page > 1) p.set("page", String(f.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}
