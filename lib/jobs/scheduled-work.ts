// What runs after each scheduled check, under the same database lease. Each feature adds its entry here,
// switched on by its own settings, so the schedule itself knows nothing of them.
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import type { ScheduledWork } from "./checks-schedule";
import { runTestPurchases } from "@/lib/test-purchases/run";
import { testPurchaseSettings } from "@/lib/test-purchases/settings";

export function scheduledWork(db: Db): ScheduledWork[] {
  const { INGEST_SOURCES, PROBE_ALLOW_PRIVATE_HOSTS } = env();
  const work: ScheduledWork[] = [];
  const sources = parseIngestSources(INGEST_SOURCES);
  // Hourly by default (the check interval), as the official registry asks of aggregators.
  if (sources.length > 0)
    work.push({
      name: "ingestion",
      run: () => runIngest(db, sources, { allowPrivateHosts: PROBE_ALLOW_PRIVATE_HOSTS }),
    });
  // Each approved paid listing at most once per TEST_PURCHASE_INTERVAL_SECONDS, within the day's budget; off at budget 0.
  const testPurchases = testPurchaseSettings();
  if (testPurchases)
    work.push({ name: "test-purchases", run: (signal) => runTestPurchases(db, testPurchases, { signal }) });
  return work;
}
