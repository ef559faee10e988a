"use server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { startIngestNow } from "@/lib/jobs/ingest-now";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { adminAction } from "./result";

/**
 * 'Run now' on /admin/sources: an admin starts one ingestion run of every configured source. 409 while a check
 * or another run holds the lease (one at a time); the run goes on in the background and the page shows it.
 * Server actions only answer same-origin POSTs (Next's Origin check), so another site cannot start one.
 */
export async function runIngestNow() {
  return adminAction("runIngestNow", z.undefined(), undefined, async () => {
    const { INGEST_SOURCES, PROBE_ALLOW_PRIVATE_HOSTS } = env();
    const started = await startIngestNow(await getDb(), parseIngestSources(INGEST_SOURCES), {
      allowPrivateHosts: PROBE_ALLOW_PRIVATE_HOSTS,
    });
    if (started.status === "no-sources") throw new ApiError(409, "No sources are configured: set INGEST_SOURCES.");
    if (started.status === "busy")
      throw new ApiError(409, "A check or ingestion run is already going; try again when it ends.");
    // The page reads fresh state on every request (it is per-user, never cached): a reload shows the run.
    void started.done;
    return { started: true };
  });
}
