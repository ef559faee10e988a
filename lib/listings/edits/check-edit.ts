// Checks a pending edit's server and keeps the result with the edit: an unreviewed server never becomes the
// listing's latest check (its price, badge and payees stay those of the approved version).
import { findPendingEdit, recordEditCheck } from "@/db/queries/listing-edits";
import type { Db } from "@/db/types";
import type { ProbeOptions, ProbeResult } from "@/lib/probe";
import { probeListingServer } from "@/lib/listings/checks/probe-listing";

/** Probes the listing's pending edit now, with the tools the edit names as paid; null when it has none (or it was replaced while the probe ran). */
export async function checkListingEdit(
  db: Db,
  listingId: string,
  options: ProbeOptions = {},
): Promise<ProbeResult | null> {
  const edit = await findPendingEdit(db, listingId);
  if (!edit) return null;
  const result = await probeListingServer(edit, options);
  return (await recordEditCheck(db, listingId, edit.revision, result)) ? result : null;
}
