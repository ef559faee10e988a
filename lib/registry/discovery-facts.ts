// What discovery entries carry of Agora's own evidence about a listing, read once per page for all its listings
// (two statements, not one per entry): sales from the chain, and the latest test purchase.
import { NO_SALES, salesSummaries } from "@/db/queries/sales";
import { latestTestPurchases } from "@/db/queries/test-purchases";
import type { Db } from "@/db/types";
import type { DiscoveryFacts } from "@/lib/listings/presenters/discovery-resource";
import { toTestPurchaseView } from "@/lib/test-purchases/view";

export async function discoveryFacts(db: Db, listingIds: string[]): Promise<(listingId: string) => DiscoveryFacts> {
  const ids = [...new Set(listingIds)];
  const [sales, tests] = await Promise.all([salesSummaries(db, ids), latestTestPurchases(db, ids)]);
  return (listingId) => {
    const test = tests.get(listingId);
    return { sales: sales.get(listingId) ?? NO_SALES, testPurchase: test ? toTestPurchaseView(test) : null };
  };
}
