// npm run check:all [-- --concurrency 8 --timeout 15000] — probes every approved and pending listing,
// records the results and clears stale Verified badges. Safe from cron: exits 0 when servers fail,
// non-zero only when the database does. With PGlite, stop the app first (one process per data directory).
import { parseArgs } from "node:util";
import { logError, logInfo } from "@/lib/log";
import { checkListings } from "@/lib/listings/checks/check-listings";
import { PROBE_TIMEOUT_MS } from "@/lib/probe/probe";
import { openConfiguredDatabase } from "./support/database";

const { values } = parseArgs({ options: { concurrency: { type: "string" }, timeout: { type: "string" } } });
const concurrency = Number(values.concurrency ?? 8);
const timeoutMs = Number(values.timeout ?? PROBE_TIMEOUT_MS);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) {
  console.error("--concurrency must be a whole number between 1 and 256");
  process.exit(2);
}
if (!Number.isInteger(timeoutMs) || timeoutMs < 1000 || timeoutMs > 120_000) {
  console.error("--timeout must be milliseconds between 1000 and 120000");
  process.exit(2);
}

let exitCode = 0;
try {
  const conn = await openConfiguredDatabase();
  try {
    const summary = await checkListings(conn.db, {
      concurrency,
      timeoutMs,
      onRecordError: (listingId, error) => logError("probe not recorded", error, { listingId }),
    });
    logInfo("check:all finished", summary);
    console.log(
      `Probed ${summary.listings} listings in ${(summary.durationMs / 1000).toFixed(1)} s (concurrency ${summary.concurrency}): ` +
        `${summary.reachable} reachable, ${summary.verifiable} verifiable, ${summary.unreachable} unreachable, ` +
        `${summary.badgesCleared} Verified badges cleared.`,
    );
    if (summary.notRecorded > 0) exitCode = 1;
  } finally {
    await conn.close();
  }
} catch (error) {
  logError("check:all failed", error);
  exitCode = 1;
}
process.exit(exitCode);
