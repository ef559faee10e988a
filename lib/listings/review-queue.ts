// The moderation queue as the admin page shows it: pending listings with their latest check and drift, and
// the latest decisions.
import { recentDrift } from "@/db/queries/drift";
import { latestProbes } from "@/db/queries/probes";
import { listReviewQueue, recentDecisions } from "@/db/queries/reviews";
import type { Db } from "@/db/types";

export async function loadReviewQueue(db: Db) {
  const [queue, decisions] = await Promise.all([listReviewQueue(db), recentDecisions(db)]);
  const ids = queue.map((l) => l.id);
  const [checks, drift] = await Promise.all([latestProbes(db, ids), recentDrift(db, ids)]);
  return { queue, decisions, checks, drift };
}
