// "Run now" from the admin view: one ingestion run started by hand, under the same database lease as the
// scheduled checks (and the ingestion riding on them), so at most one runs at a time across every instance.
// The run goes on after the request that started it; the lease is released when it ends.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { leaseHeld, releaseJobIfHeld, takeLease } from "@/db/queries/scheduled-jobs";
import type { Db } from "@/db/types";
import { CHECK_JOB } from "./checks-schedule";
import { logError } from "@/lib/log";
import { runIngest, type IngestOptions, type IngestSummary } from "@/lib/ingest/run-ingest";
import type { IngestSource } from "@/lib/config/ingest-sources";

/** As long as the schedule's own lease: a run still going then is presumed dead and the lease is free again. */
const LEASE_MS = 30 * 60 * 1000;

type RunNow =
  { status: "started"; done: Promise<IngestSummary | null> } | { status: "busy" } | { status: "no-sources" };

export async function startIngestNow(db: Db, sources: IngestSource[], options: IngestOptions = {}): Promise<RunNow> {
  if (sources.length === 0) return { status: "no-sources" };
  const holder = `run-now:${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  if (!(await takeLease(db, CHECK_JOB, holder, LEASE_MS))) return { status: "busy" };
  const done = runIngest(db, sources, options)
    .catch((error: unknown) => {
      logError("ingestion run started by hand failed", error);
      return null;
    })
    .finally(() => releaseJobIfHeld(db, CHECK_JOB, holder));
  return { status: "started", done };
}

/** Whether a check or ingestion run holds the lease now (the admin view says "running"). */
export function ingestRunning(db: Db): Promise<boolean> {
  return leaseHeld(db, CHECK_JOB);
}
