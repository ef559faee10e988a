// Node-only start-up, loaded by instrumentation.ts on the Node.js runtime: checks, then the schedule.
import { env, TEST_SWITCHES } from "@/lib/env";
import { closeDatabase, getDb } from "@/lib/database";
import { logError, logInfo, logWarn } from "@/lib/log";
import { pinAuthUrl } from "@/lib/public-origin";
import { startScheduledChecks } from "@/lib/listings/checks/scheduled-checks";
import { onShutdown } from "@/lib/shutdown";
import { shareCacheTags } from "@/lib/cache/shared-tags";
import { scheduledWork } from "@/lib/jobs/scheduled-work";
import { searchCacheStats } from "@/lib/listings/search/search";
import { startSalesSchedule } from "@/lib/jobs/sales-schedule";
import { revalidateSalesPages } from "@/lib/sales/revalidate";

const holder = globalThis as unknown as { __salesSchedule?: boolean; __verifySchedule?: boolean; __memoryLog?: boolean; __shutdownHooks?: boolean };

export async function startUp(): Promise<void> {
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // Without the preload every client would share one rate-limit bucket ("unknown"), or worse, be believed.
  const building = process.env.NEXT_PHASE === "phase-production-build";
  if (!building && !(globalThis as Record<symbol, unknown>)[Symbol.for("agora.client-address-preload")]) {
    console.error(
      "The server was started without server/client-address.mjs, so it cannot tell clients apart.\n" +
        "Start it with `npm start` / `npm run dev`, or `node --import ./server/client-address.mjs node_modules/next/dist/bin/next start`.",
    );
    process.exit(1);
  }
  const settings = env();
  const switchedOff = TEST_SWITCHES.filter((name) => settings[name]);
  if (settings.NODE_ENV === "production" && settings.UNSAFE_TEST_MODE && switchedOff.length > 0) {
    logWarn("UNSAFE_TEST_MODE: protections are off; never run this set-up in front of users", { switchedOff });
  }
  pinAuthUrl();
  if (settings.MEMORY_LOG_SECONDS > 0 && !holder.__memoryLog) {
    holder.__memoryLog = true;
    const mb = (n: number) => Math.round(n / 2 ** 20);
    // external includes PGlite's WebAssembly memory (its whole size, resident or not); bench/memory.ts reads these.
    const logMemory = () => {
      const m = process.memoryUsage();
      logInfo("memory", { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers), searchCache: searchCacheStats() });
    };
    setInterval(logMemory, settings.MEMORY_LOG_SECONDS * 1000).unref();
  }
  // Open the database (and apply migrations) now, so the first request does not pay for it.
  await getDb().catch((error: unknown) => {
    console.error("Could not open the database:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
  // Added first, so it runs last: the schedule's hook still needs the database to release its lease.
  if (!holder.__shutdownHooks) onShutdown("close the database", closeDatabase);
  // Several instances on one PostgreSQL database see each other's cache revalidations (PGlite has one process).
  const { DATABASE_URL } = env();
  if (DATABASE_URL && !building && !holder.__shutdownHooks) {
    const sharing = await shareCacheTags(await getDb(), DATABASE_URL);
    onShutdown("stop sharing cache revalidations", sharing.close);
  }
  holder.__shutdownHooks = true;
  if (!building) startSalesIndexing(await getDb());
  const { VERIFY_SCHEDULE_DISABLED, VERIFY_INTERVAL_SECONDS } = env();
  // `next build` loads instrumentation too; only a serving process runs the schedule.
  if (VERIFY_SCHEDULE_DISABLED || holder.__verifySchedule || building) return;
  holder.__verifySchedule = true;
  const db = await getDb();
  const schedule = startScheduledChecks(db, {
    intervalMs: VERIFY_INTERVAL_SECONDS * 1000,
    alsoRun: scheduledWork(db),
    onRun: (summary) => logInfo("scheduled verification", { ...summary, holder: schedule.holder }),
    onWork: (name, result) => logInfo(`scheduled ${name}`, result && typeof result === "object" ? (result as Record<string, unknown>) : { result }),
    onError: (error, work) => logError(work ? `scheduled ${work} failed` : "scheduled verification failed", error),
  });
  // A run in progress is given a few seconds, then its lease is released so another instance need not wait out the lease.
  onShutdown("stop scheduled verification", () => schedule.stop({ waitMs: 3_000 }));
  logInfo("scheduled verification started", { intervalSeconds: VERIFY_INTERVAL_SECONDS, holder: schedule.holder });
}

// A sales run longer than this (or than ten intervals) is logged as slow, with how long it waited for its lease.
const SLOW_SALES_RUN_MS = 10_000;

// Sales run on their own, shorter schedule (lib/jobs/sales-schedule.ts), whether or not the listing checks do: a purchase
// should show within a minute (seconds in the sandbox). Pages that show sales are revalidated when a run changed any.
function startSalesIndexing(db: Awaited<ReturnType<typeof getDb>>): void {
  const { CHAIN_RPC_URLS, SALES_INDEX_INTERVAL_SECONDS } = env();
  if (!CHAIN_RPC_URLS || SALES_INDEX_INTERVAL_SECONDS === 0 || holder.__salesSchedule) return;
  holder.__salesSchedule = true;
  const slowMs = Math.max(SLOW_SALES_RUN_MS, 10 * SALES_INDEX_INTERVAL_SECONDS * 1000);
  const sales = startSalesSchedule(db, {
    intervalMs: SALES_INDEX_INTERVAL_SECONDS * 1000,
    onRun: (summary, timing) => {
      const changed = summary.networks.some((n) => !("error" in n) && (n.added > 0 || n.removed > 0));
      if (changed) void revalidateSalesPages().catch((error: unknown) => logError("could not revalidate sales pages", error));
      // A run far longer than its interval delays every sale it finds: say so, with where the time went.
      const slow = timing.claimMs + timing.runMs > slowMs;
      if (changed || slow || summary.networks.some((n) => "error" in n)) logInfo(slow ? "sales indexed slowly" : "sales indexed", { ...summary, ...timing });
    },
    onError: (error) => logError("sales indexing failed", error),
  });
  onShutdown("stop sales indexing", () => sales.stop({ waitMs: 3_000 }));
}
