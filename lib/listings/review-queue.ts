// The moderation queue as the admin page shows it: pending listings with their latest check and drift, owners'
// pending edits of approved listings (each with its own check), and the latest decisions.
import { recentDrift } from "@/db/queries/drift";
import { editCheckRow, listPendingEdits } from "@/db/queries/listing-edits";
import { latestProbes } from "@/db/queries/probes";
import { listReviewQueue, recentDecisions } from "@/db/queries/reviews";
import type { EditCheck, ListingProbe } from "@/db/schema";
import type { Db } from "@/db/types";
import { editChanges, termsChanges } from "./edits/changes";

/** An edit's check in the shape the probe evidence shows (it is not one of the listing's checks). */
function asCheck(listingId: string, revision: number, check: EditCheck): ListingProbe {
  return { id: `edit-${listingId}-${revision}`, ...editCheckRow(listingId, revision, check) };
}

export async function loadReviewQueue(db: Db) {
  const [queue, edits, decisions] = await Promise.all([listReviewQueue(db), listPendingEdits(db), recentDecisions(db)]);
  const ids = queue.map((l) => l.id);
  const [checks, drift] = await Promise.all([latestProbes(db, ids), recentDrift(db, ids)]);
  const pendingEdits = edits.map((e) => ({
    ...e,
    // A server held for review changes its terms, not its text.
    changes: [
      ...editChanges(e.current, e.proposed),
      ...(e.check?.url === e.current.serverUrl ? termsChanges(e.approvedTerms, e.check) : []),
    ],
    // A check of the listing's previous server is not evidence for the edited one.
    check: e.check && e.check.url === e.proposed.serverUrl ? asCheck(e.listingId, e.revision, e.check) : undefined,
  }));
  return { queue, edits: pendingEdits, decisions, checks, drift };
}
