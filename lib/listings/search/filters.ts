// The marketplace page's presentation of the catalogue's filters (labels, views, page size, URLs). The filter and
// sort values themselves are named once, in @agora-mcp/protocol's catalogue.ts, imported through its own subpath: the
// package's index would bring zod and a Buffer polyfill (about 40 kB gzip) into every client component importing this
// module. No zod here either, for the same reason.
import {
  BROWSE_SORT,
  CATALOGUE_PRICES,
  CATALOGUE_SORTS,
  CATALOGUE_SOURCES,
  defaultSort,
  type CatalogueFilters,
  type CataloguePrice,
  type CatalogueSort,
  type CatalogueSource,
} from "@agora-mcp/protocol/catalogue";
import { SOURCE_NAMES } from "@/lib/listings/source-names";

export { BROWSE_SORT, CATALOGUE_PRICES, CATALOGUE_SORTS, CATALOGUE_SOURCES, defaultSort };
// Labels are Records over the protocol's lists, so a new value fails to compile until it has a label here.
export const SORT_LABELS: Record<Sort, string> = {
  relevance: "Relevance",
  popular: "Popular",
  purchased: "Most purchased",
  newest: "Newest",
  name: "Name",
};
export const PRICE_LABELS: Record<PriceFilter, string> = { all: "All prices", free: "Free", paid: "Paid" };
export const SOURCE_LABELS: Record<SourceFilter, string> = { all: "All sources", ...SOURCE_NAMES };
export const PAGE_SIZE = 24;

export type Sort = CatalogueSort;
type PriceFilter = CataloguePrice;
export type View = "grid" | "list";
type SourceFilter = CatalogueSource;
export type ListingFilters = CatalogueFilters;

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
