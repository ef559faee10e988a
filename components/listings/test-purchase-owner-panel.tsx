import { TriangleAlert } from "lucide-react";
import type { OwnerTestPurchases } from "@/lib/test-purchases/owner";
import { TestPurchaseExcludeToggle } from "./test-purchase-exclude-toggle";
import { TestPurchaseLine } from "./test-purchase-line";

/** The owner's view of Agora's test purchases: what happened, a warning when nothing was delivered, and which items it may buy. */
export function TestPurchaseOwnerPanel({ listings }: { listings: OwnerTestPurchases[] }) {
  const shown = listings.filter((l) => l.latest || l.items.some((i) => i.priceUsd !== "$0.00"));
  if (shown.length === 0) return null;
  return (
    <ul className="grid gap-4" data-testid="owner-test-purchases">
      {shown.map((l) => (
        <li key={l.listingId} className="rounded-xl border bg-card p-4 shadow-xs">
          <h3 className="font-semibold break-words">{l.name}</h3>
          {l.latest?.outcome === "not-delivered" && (
            <p
              role="alert"
              className="mt-2 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                Agora paid {l.latest.priceUsd} for {l.latest.item} and nothing was delivered, so this server is no
                longer Verified. Fix the server; the next test purchase that delivers restores the badge.
              </span>
            </p>
          )}
          <div className="mt-2">
            {l.latest ? (
              <TestPurchaseLine testPurchase={l.latest} />
            ) : (
              <p className="text-sm text-muted-foreground">No test purchase yet.</p>
            )}
          </div>
          {l.items.length > 0 && (
            <fieldset className="mt-3">
              <legend className="text-sm text-muted-foreground">
                Items Agora may buy to test delivery (untick one with side effects in the world):
              </legend>
              <div className="mt-2 grid gap-1.5">
                {l.items.map((i) => (
                  <TestPurchaseExcludeToggle
                    key={i.key}
                    listingId={l.listingId}
                    item={i.key}
                    name={`${i.name} (${i.priceUsd})`}
                    excluded={i.excluded}
                  />
                ))}
              </div>
            </fieldset>
          )}
        </li>
      ))}
    </ul>
  );
}
