// Checks a pending edit's server and keeps the result with the edit: an unreviewed server never becomes the
// listing's latest check (its price, badge and payees stay those of the approved version).
import { findPendingEdit, recordEditCheck } from "@/db/queries/listing-edits";
import type { Db } from "@/db/types";
import { probeServer, type ProbeOptions, type ProbeResult } from "@/lib/probe";

/** Probes the listing's pending edit now; null when it has none (or it was replaced while the probe ran). */
export async function checkListingEdit(db: Db, listingId: string, options: ProbeOptions = {}): Promise<ProbeResult | null> {
  const edit = await findPendingEdit(db, listingId);
  if (!edit) return null;
  const result = await probeServer(edit.serverUrl, options);
  return (await recordEditCheck(db, listingId, edit.revision, result)) ? result : null;
}
