"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { ChevronDownIcon, LayoutGrid, List, Loader2, Search, X } from "lucide-react";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import {
  CATALOGUE_PRICES,
  CATALOGUE_SORTS,
  CATALOGUE_SOURCES,
  defaultSort,
  filtersToSearch,
  PRICE_LABELS,
  SORT_LABELS,
  SOURCE_LABELS,
  type ListingFilters,
  type View,
} from "@/lib/listings/search/filters";

const SEARCH_DEBOUNCE_MS = 300;

// The classes of ui/Input and ui/NativeSelect merged with this screen's sizes, written out as cn() produced
// them: the marketplace's first load then carries no tailwind-merge (~7 kB gzip).
const SEARCH_INPUT_CLASSES =
  "placeholder:text-muted-foreground border-input flex w-full min-w-0 rounded-md border bg-white px-3 py-1 text-base shadow-xs transition-[color,box-shadow] outline-none disabled:cursor-not-allowed disabled:opacity-50 md:text-sm focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] aria-invalid:ring-destructive/20 aria-invalid:border-destructive h-10 pr-9 pl-9";
const SELECT_CLASSES =
  "border-input focus-visible:border-ring focus-visible:ring-ring/50 w-full appearance-none rounded-md border bg-white py-1 pr-8 pl-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] h-10";

type Props = {
  filters: ListingFilters;
  view: View;
  categories: { name: string; count: number }[];
  summary: React.ReactNode;
  children: React.ReactNode;
};

/** Filters and the view switch. State lives in the URL; the server renders every result set. */
export function MarketplaceControls({ filters, view, categories, summary, children }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // What the user asked for last; it leads the server-rendered props while a navigation is pending, so quick
  // successive changes build on each other (through the ref, read by the next change) instead of on stale props.
  // Once no navigation is pending, the committed one (including back/forward and 'Clear all filters') is the truth.
  const [wanted, setWantedState] = useState({ filters, view });
  const wantedRef = useRef(wanted);
  const setWanted = (next: typeof wanted) => {
    wantedRef.current = next;
    setWantedState(next);
  };
  const shown = pending ? wanted : { filters, view };
  useEffect(() => {
    if (!pending) wantedRef.current = { filters, view };
  }, [filters, view, pending]);

  // The search box: what was typed, or the committed search once a navigation lands while no typing waits for its
  // pause (adjusted while rendering the new props, so the box never shows the old text over the new results).
  const [q, setQ] = useState(filters.q);
  const searchBox = useRef<HTMLInputElement>(null);
  const [typing, setTyping] = useState(false);
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [committed, setCommitted] = useState(filters);
  if (!pending && committed !== filters) {
    setCommitted(filters);
    if (!typing) setQ(filters.q);
  }

  // A typed search waiting for its pause must not outlive a navigation: 'Clear all filters', a page link or
  // back/forward within the delay would otherwise be undone when it fires, re-applying the old filters.
  function dropPendingSearch() {
    clearTimeout(debounce.current);
    debounce.current = undefined;
    setTyping(false);
  }

  // Marks the controls interactive, so tests (and styles) can tell a hydrated page from its HTML.
  const ready = useHydrated();
  // Before hydration the form is a plain GET form (Enter submits it). Text typed into it then is still in the box
  // (React keeps a value the person set before it took over) but in no state: searched for here, as if typed now.
  useEffect(() => {
    const typed = searchBox.current?.value ?? "";
    if (typed.trim() !== filters.q) onType(typed);
    // Once, at hydration: later typing goes through onType itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    window.addEventListener("popstate", dropPendingSearch);
    return () => {
      window.removeEventListener("popstate", dropPendingSearch);
      dropPendingSearch();
    };
  }, []);

  function go(next: Partial<ListingFilters> & { view?: View }, mode: "push" | "replace" = "push") {
    dropPendingSearch();
    const current = wantedRef.current;
    const { view: nextView = current.view, ...nextFilters } = next;
    // A sort nobody chose follows the text: typing a search switches to relevance, clearing it back to popular.
    if (next.q !== undefined && next.sort === undefined && current.filters.sort === defaultSort(current.filters.q))
      nextFilters.sort = defaultSort(next.q);
    const merged = { filters: { ...current.filters, ...nextFilters }, view: nextView };
    setWanted(merged);
    const url = `/marketplace${filtersToSearch({ ...merged.filters, view: merged.view, page: 1 })}`;
    startTransition(() =>
      mode === "push" ? router.push(url, { scroll: false }) : router.replace(url, { scroll: false }),
    );
  }

  // Typing updates results without a full reload, once the user pauses.
  function onType(value: string) {
    setQ(value);
    setTyping(true);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => {
      debounce.current = undefined;
      setTyping(false);
      if (value.trim() !== wantedRef.current.filters.q) go({ q: value.trim() }, "replace");
    }, SEARCH_DEBOUNCE_MS);
  }

  const categoryKnown = !filters.category || categories.some((c) => c.name === filters.category);
  return (
    <Tabs
      value={shown.view}
      onValueChange={(v) => go({ view: v as View }, "replace")}
      // Any link in the results ('Clear all filters', pagination, a listing) is a navigation.
      onClickCapture={(e) => {
        if (e.target instanceof Element && e.target.closest("a[href]")) dropPendingSearch();
      }}
      className="gap-6"
    >
      <form
        role="search"
        data-ready={ready ? "true" : undefined}
        action="/marketplace"
        method="get"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: q.trim() });
        }}
        className="grid gap-3 rounded-xl border bg-white p-3 shadow-xs sm:p-4 xl:grid-cols-[minmax(0,1fr)_auto]"
      >
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <label htmlFor="marketplace-search" className="sr-only">
            Search MCP servers
          </label>
          <input
            data-slot="input"
            id="marketplace-search"
            ref={searchBox}
            name="q"
            type="search"
            value={q}
            onChange={(e) => onType(e.target.value)}
            placeholder="Search by name or category"
            className={SEARCH_INPUT_CLASSES}
            autoComplete="off"
            maxLength={200}
          />
          {pending ? (
            <Loader2
              aria-label="Loading results"
              className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
            />
          ) : q ? (
            <button
              type="button"
              aria-label="Clear search"
              onClick={() => {
                setQ("");
                go({ q: "" }, "replace");
              }}
              className="absolute top-1/2 right-2.5 -translate-y-1/2 rounded p-0.5 text-muted-foreground hover:text-foreground"
            >
              <X className="size-4" />
            </button>
          ) : null}
        </div>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3 xl:flex">
          <FilterSelect
            label="Category"
            name="category"
            value={shown.filters.category || "all"}
            onChange={(v) => go({ category: v === "all" ? "" : v })}
          >
            <option value="all">All categories</option>
            {!categoryKnown && <option value={filters.category}>{filters.category}</option>}
            {categories.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.count})
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Price"
            name="price"
            value={shown.filters.price}
            onChange={(v) => go({ price: v as ListingFilters["price"] })}
          >
            {CATALOGUE_PRICES.map((p) => (
              <option key={p} value={p}>
                {PRICE_LABELS[p]}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Source"
            name="source"
            value={shown.filters.source ?? "all"}
            onChange={(v) => go({ source: v as ListingFilters["source"] })}
          >
            {CATALOGUE_SOURCES.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABELS[s]}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Sort"
            name="sort"
            value={shown.filters.sort}
            onChange={(v) => go({ sort: v as ListingFilters["sort"] })}
          >
            {CATALOGUE_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </FilterSelect>
        </div>
        {shown.view === "list" && <input type="hidden" name="view" value="list" />}
        <button type="submit" className="sr-only">
          Search
        </button>
      </form>
      <div className="flex items-center justify-between gap-3">
        <div className="text-sm text-muted-foreground" aria-live="polite">
          {summary}
        </div>
        <TabsList aria-label="Layout">
          <TabsTrigger value="grid">
            <LayoutGrid aria-hidden="true" /> Grid View
          </TabsTrigger>
          <TabsTrigger value="list">
            <List aria-hidden="true" /> List View
          </TabsTrigger>
        </TabsList>
      </div>
      <TabsContent
        value={shown.view}
        className={pending ? "opacity-60 transition-opacity" : "transition-opacity"}
        aria-busy={pending}
      >
        {children}
      </TabsContent>
    </Tabs>
  );
}

function FilterSelect({
  label,
  name,
  value,
  onChange,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  children: React.ReactNode;
}) {
  const id = `filter-${name}`;
  return (
    <div className="min-w-0 lg:w-44">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative">
        <select
          data-slot="select"
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={SELECT_CLASSES}
          aria-label={label}
        >
          {children}
        </select>
        <ChevronDownIcon className="text-muted-foreground pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2" />
      </div>
    </div>
  );
}
