// Checks every listing on a schedule inside the app, so a badge never outlives its server. Several
// instances may run this; the database lets one of them run each interval (db/queries/scheduled-jobs.ts).
import { randomUUID } from "node:crypto";
import os from "node:os";
import { claimJob, releaseJob, releaseJobIfHeld } from "@/db/queries/scheduled-jobs";
import type { Db } from "@/db/types";
import { finishedWithin } from "./finished-within";
import { checkListings, type CheckListingsOptions, type ChecksSummary } from "@/lib/listings/checks/check-listings";

export const CHECK_JOB = "verify-listings";
// A run that outlives this (a crashed instance) stops blocking the others.
const LEASE_MS = 30 * 60 * 1000;

/** One piece of work that rides on the checks' lease; its failure is reported and the next piece still runs. */
export type ScheduledWork = { name: string; run: (signal: AbortSignal) => Promise<unknown> };

type ScheduleOptions = {
  intervalMs: number;
  probe?: CheckListingsOptions;
  onRun?: (summary: ChecksSummary) => void;
  /** More work under the same lease after the checks, in order (lib/jobs/scheduled-work.ts lists it). */
  alsoRun?: ScheduledWork[];
  onWork?: (name: string, result: unknown) => void;
  onError?: (error: unknown, work?: string) => void;
};

type StopOptions = {
  /** How long a run in progress may go on (it checks no further listings); then its lease is released anyway. */
  waitMs?: number;
};

type RunningSchedule = { holder: string; stop: (options?: StopOptions) => Promise<void> };

/**
 * Checks every tenth of the interval (between 0.2 s and 60 s) whether a run is due, and runs it when this
 * instance wins the claim. Errors are reported and the schedule carries on; nothing here stops the app.
 */
export function startScheduledChecks(db: Db, options: ScheduleOptions): RunningSchedule {
  const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const tickMs = Math.min(60_000, Math.max(200, options.intervalMs / 10));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const stopping = new AbortController();

  const tick = async () => {
    try {
      if ((await claimJob(db, CHECK_JOB, holder, options.intervalMs, Math.max(LEASE_MS, options.intervalMs))) === null)
        return;
      try {
        // Not `onRun?.(await checkListings(…))`: an optional call skips its arguments, so without onRun nothing ran.
        const summary = await checkListings(db, { ...options.probe, signal: stopping.signal });
        options.onRun?.(summary);
        for (const work of options.alsoRun ?? []) {
          // A run stopped for shutdown starts no further work either.
          if (stopping.signal.aborted) break;
          try {
            options.onWork?.(work.name, await work.run(stopping.signal));
          } catch (error) {
            options.onError?.(error, work.name);
          }
        }
      } finally {
        await releaseJob(db, CHECK_JOB, holder);
      }
    } catch (error) {
      options.onError?.(error);
    }
  };
  const loop = () => {
    if (stopped) return;
    current = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, tickMs).unref();
    });
  };
  loop();

  return {
    holder,
    stop: async ({ waitMs }: StopOptions = {}) => {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      if (waitMs === undefined) return current;
      const finished = await finishedWithin(current, waitMs);
      // The probe still running belongs to a process about to exit: the lease must not outlive it.
      if (!finished) await releaseJobIfHeld(db, CHECK_JOB, holder);
    },
  };
}
