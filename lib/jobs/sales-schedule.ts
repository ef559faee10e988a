// The sales indexer's own schedule: every SALES_INDEX_INTERVAL_SECONDS (seconds in the sandbox, so a purchase
// shows at once, while listing checks run hourly), one app instance at a time under its own database lease.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { claimJob, releaseJob, releaseJobIfHeld } from "@/db/queries/scheduled-jobs";
import type { Db } from "@/db/types";
import { finishedWithin } from "./finished-within";
import { indexAllSales, type SalesRunSummary } from "./sales-run";

const SALES_JOB = "index-sales";
// A run that outlives this (a crashed instance) stops blocking the others.
const LEASE_MS = 10 * 60 * 1000;

type SalesSchedule = { holder: string; stop: (options?: { waitMs?: number }) => Promise<void> };

/** How long a run waited for its lease and then took (a slow run is logged, to see where the time went). */
export type SalesRunTiming = { claimMs: number; runMs: number };

export function startSalesSchedule(
  db: Db,
  options: {
    intervalMs: number;
    onRun?: (summary: SalesRunSummary, timing: SalesRunTiming) => void;
    onError?: (error: unknown) => void;
  },
): SalesSchedule {
  const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const tickMs = Math.min(60_000, Math.max(200, options.intervalMs / 5));
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = async () => {
    try {
      const started = performance.now();
      if ((await claimJob(db, SALES_JOB, holder, options.intervalMs, Math.max(LEASE_MS, options.intervalMs))) === null)
        return;
      const claimed = performance.now();
      try {
        // Not `onRun?.(await indexAllSales(…))`: an optional call skips its arguments, so without onRun nothing would run.
        const summary = await indexAllSales(db, stopping.signal);
        options.onRun?.(summary, {
          claimMs: Math.round(claimed - started),
          runMs: Math.round(performance.now() - claimed),
        });
      } finally {
        await releaseJob(db, SALES_JOB, holder);
      }
    } catch (error) {
      options.onError?.(error);
    }
  };
  const loop = () => {
    if (stopping.signal.aborted) return;
    current = tick().finally(() => {
      if (!stopping.signal.aborted) timer = setTimeout(loop, tickMs).unref();
    });
  };
  loop();
  return {
    holder,
    stop: async ({ waitMs = 3_000 } = {}) => {
      stopping.abort();
      clearTimeout(timer);
      const finished = await finishedWithin(current, waitMs);
      if (!finished) await releaseJobIfHeld(db, SALES_JOB, holder);
    },
  };
}
