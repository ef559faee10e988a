// Discovery entries as both endpoints answer them: each payable tool with its listing's evidence (sales from the
// chain, the latest test purchase, the buyers' rating), read for the whole page in one statement.
import type { PayableItem } from "@/db/queries/discovery";
import { listingEvidence } from "@/db/queries/listing-facts";
import type { Db } from "@/db/types";
import { toEvidenceView } from "@/lib/listings/from-rows";
import { toDiscoveryResource } from "@/lib/listings/presenters/discovery-resource";

const NO_RATING = { count: 0, average: null };
const NO_DELIVERIES = { delivered: 0, failedUncharged: 0, failedCharged: 0 };

export async function discoveryEntries(db: Db, payables: PayableItem[]) {
  const evidence = await listingEvidence(db, [...new Set(payables.map((p) => p.listingId))]);
  return payables.map((p) => {
    const facts = evidence.get(p.listingId);
    return toDiscoveryResource(p, {
      ...toEvidenceView(facts),
      buyerRating: facts?.buyerRating ?? NO_RATING,
      delivery30d: facts?.delivery ?? NO_DELIVERIES,
    });
  });
}
