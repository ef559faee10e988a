// Whether this instance can serve: the database answers and has every migration this build ships. A load
// balancer or container runtime asks GET /api/ready; the answer comes within a bound even while the database hangs.
import { pendingMigrations, readMigrationJournal } from "@/db/queries/migrations";
import { getDb } from "@/lib/database";

export type Readiness = { ready: true } | { ready: false; reason: string };

// Well under the 2 s a caller may wait: the pool's own deadline (4 s, lib/database.ts) is too long for a probe.
const READY_DEADLINE_MS = 1_500;

class TooSlow extends Error {}

export async function checkReadiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TooSlow()), READY_DEADLINE_MS)));
  try {
    const pending = await Promise.race([readPending(), late]);
    if (pending.length > 0)
      return { ready: false, reason: `migrations not applied: ${pending.map((m) => m.tag).join(", ")}` };
    return { ready: true };
  } catch (error) {
    if (error instanceof TooSlow)
      return { ready: false, reason: `database did not answer within ${READY_DEADLINE_MS} ms` };
    return { ready: false, reason: `database unreachable: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

async function readPending() {
  const [db, journal] = await Promise.all([getDb(), readMigrationJournal()]);
  return pendingMigrations(db, journal);
}
