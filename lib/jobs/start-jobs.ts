// The one scheduler entry for background work, started by lib/startup.ts on a serving process: the listing checks
// (with the work riding on their lease, lib/jobs/scheduled-work.ts: ingestion, test purchases) every
// CHECK_INTERVAL_SECONDS, and the sales index on its own, shorter schedule. Ingestion started by hand from the
// admin view shares the checks' lease (lib/jobs/ingest-now.ts).
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import { logError, logInfo } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown";
import { changed as cacheChanged } from "@/lib/cache/invalidate";
import { startScheduledChecks } from "./checks-schedule";
import { scheduledWork } from "./scheduled-work";
import { startSalesSchedule } from "./sales-schedule";
import { processState } from "@/db/process-state";

// Flags on globalThis: a dev server reloads modules, and each schedule must start once per process.
const holder = processState("jobs", () => ({ salesSchedule: false, checkSchedule: false }));

export function startJobs(db: Db): void {
  startSalesIndexing(db);
  startVerification(db);
}

function startVerification(db: Db): void {
  const { CHECK_SCHEDULE_DISABLED, CHECK_INTERVAL_SECONDS } = env();
  if (CHECK_SCHEDULE_DISABLED || holder.checkSchedule) return;
  holder.checkSchedule = true;
  const schedule = startScheduledChecks(db, {
    intervalMs: CHECK_INTERVAL_SECONDS * 1000,
    alsoRun: scheduledWork(db),
    onRun: (summary) => logInfo("scheduled checks", { ...summary, holder: schedule.holder }),
    onWork: (name, result) =>
      logInfo(
        `scheduled ${name}`,
        result && typeof result === "object" ? (result as Record<string, unknown>) : { result },
      ),
    onError: (error, work) => logError(work ? `scheduled ${work} failed` : "scheduled checks failed", error),
  });
  // A run in progress is given a few seconds, then its lease is released so another instance need not wait out the lease.
  onShutdown("stop scheduled checks", () => schedule.stop({ waitMs: 3_000 }));
  logInfo("scheduled checks started", { intervalSeconds: CHECK_INTERVAL_SECONDS, holder: schedule.holder });
}

// A sales run longer than this (or than ten intervals) is logged as slow, with how long it waited for its lease.
const SLOW_SALES_RUN_MS = 10_000;

// Sales run on their own, shorter schedule (sales-schedule.ts), whether or not the listing checks do: a purchase
// should show within a minute (seconds in the sandbox). Pages that show sales are revalidated when a run changed any.
function startSalesIndexing(db: Db): void {
  const { CHAIN_RPC_URLS, SALES_INDEX_INTERVAL_SECONDS } = env();
  if (!CHAIN_RPC_URLS || SALES_INDEX_INTERVAL_SECONDS === 0 || holder.salesSchedule) return;
  holder.salesSchedule = true;
  const slowMs = Math.max(SLOW_SALES_RUN_MS, 10 * SALES_INDEX_INTERVAL_SECONDS * 1000);
  const sales = startSalesSchedule(db, {
    intervalMs: SALES_INDEX_INTERVAL_SECONDS * 1000,
    onRun: (summary, timing) => {
      // Pages cached with sales figures (the detail pages' daily chart carries the sales tag) must go.
      const changed = summary.networks.some((n) => !("error" in n) && (n.added > 0 || n.removed > 0));
      if (changed)
        void cacheChanged("sales").catch((error: unknown) => logError("could not revalidate sales pages", error));
      // A run far longer than its interval delays every sale it finds: say so, with where the time went.
      const slow = timing.claimMs + timing.runMs > slowMs;
      if (changed || slow || summary.networks.some((n) => "error" in n))
        logInfo(slow ? "sales indexed slowly" : "sales indexed", { ...summary, ...timing });
    },
    onError: (error) => logError("sales indexing failed", error),
  });
  onShutdown("stop sales indexing", () => sales.stop({ waitMs: 3_000 }));
}
