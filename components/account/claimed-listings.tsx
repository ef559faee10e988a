import Link from "next/link";
import type { ClaimedListing } from "@/lib/claims/claim-listing";
import { formatDay } from "@/lib/dates";

/** Imported listings this account claimed; each is also under "Your servers", where it is edited. */
export function ClaimedListings({ listings }: { listings: ClaimedListing[] }) {
  if (listings.length === 0) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        You have not claimed an imported listing. A listing imported from the MCP Registry offers &ldquo;Claim this
        listing&rdquo; on its page.
      </p>
    );
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label="Claimed listings">
      {listings.map((l) => (
        <li key={l.id} className="flex flex-col gap-1 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            {l.status === "approved" ? (
              <Link
                href={`/marketplace/${l.slug}`}
                className="font-medium break-words text-primary underline-offset-4 hover:underline"
              >
                {l.name}
              </Link>
            ) : (
              <p className="font-medium break-words">{l.name}</p>
            )}
            <p className="font-mono text-xs break-all text-muted-foreground">{l.upstreamName}</p>
          </div>
          {l.claimedAt && <p className="shrink-0 text-xs text-muted-foreground">Claimed {formatDay(l.claimedAt)}</p>}
        </li>
      ))}
    </ul>
  );
}
