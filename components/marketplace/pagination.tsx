import Link from "next/link";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { filtersToSearch, type ListingFilters, type View } from "@/lib/listings/search/filters";
import { cn } from "@/lib/utils";

/** Plain links, so crawlers and people without JavaScript can page through the catalogue. */
export function Pagination({
  filters,
  view,
  page,
  pageCount,
}: {
  filters: ListingFilters;
  view: View;
  page: number;
  pageCount: number;
}) {
  if (pageCount <= 1) return null;
  const href = (p: number) => `/marketplace${filtersToSearch({ ...filters, view, page: p })}`;
  const pages = pageWindow(page, pageCount);
  const item = "inline-flex h-9 min-w-9 items-center justify-center rounded-md border px-3 text-sm font-medium";
  return (
    <nav aria-label="Pagination" className="mt-10 flex flex-wrap items-center justify-center gap-1.5">
      {page > 1 ? (
        <Link href={href(page - 1)} rel="prev" className={cn(item, "bg-white hover:bg-accent")}>
          <ChevronLeft className="size-4" /> Previous
        </Link>
      ) : null}
      {pages.map((p, i) =>
        p === null ? (
          <span key={`gap-${i}`} className="px-1 text-muted-foreground" aria-hidden="true">
            …
          </span>
        ) : (
          <Link
            key={p}
            href={href(p)}
            aria-label={`Page ${p}`}
            aria-current={p === page ? "page" : undefined}
            className={cn(
              item,
              p === page ? "border-primary bg-primary text-primary-foreground" : "bg-white hover:bg-accent",
            )}
          >
            {p}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link href={href(page + 1)} rel="next" className={cn(item, "bg-white hover:bg-accent")}>
          Next <ChevronRight className="size-4" />
        </Link>
      ) : null}
    </nav>
  );
}

function pageWindow(page: number, count: number): (number | null)[] {
  const wanted = new Set([1, count, page - 1, page, page + 1].filter((p) => p >= 1 && p <= count));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push(null);
    out.push(p);
  });
  return out;
}
