// Node-only start-up, loaded by instrumentation.ts on the Node.js runtime: checks, then the background jobs (lib/jobs/start-jobs.ts).
import { env, TEST_SWITCHES } from "@/lib/env";
import { closeDatabase, getDb, onCreated, type Db } from "@/lib/database";
import { logInfo, logWarn } from "@/lib/log";
import { pinAuthUrl } from "@/lib/public-origin";
import { onShutdown } from "@/lib/shutdown";
import { shareCacheTags } from "@/lib/cache/shared-tags";
import { searchCacheStats } from "@/lib/listings/search/search";
import { startJobs } from "@/lib/jobs/start-jobs";
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { processState } from "@/db/process-state";

const holder = processState("startup", () => ({ memoryLog: false, shutdownHooks: false, sampleSeedHook: false }));

/** A brand-new embedded database gets the sample catalogue, so a first run shows a full marketplace. */
async function seedSample(db: Db): Promise<void> {
  await seedSampleCatalogue(db);
  // In the background: the reference server may not be up yet, and start-up must not wait on it.
  void probeSampleListings(db, { attempts: 10 }).catch(() => {});
}

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
  if (settings.MEMORY_LOG_SECONDS > 0 && !holder.memoryLog) {
    holder.memoryLog = true;
    const mb = (n: number) => Math.round(n / 2 ** 20);
    // external includes PGlite's WebAssembly memory (its whole size, resident or not); bench/memory.ts reads these.
    const logMemory = () => {
      const m = process.memoryUsage();
      logInfo("memory", {
        rssMb: mb(m.rss),
        heapUsedMb: mb(m.heapUsed),
        heapTotalMb: mb(m.heapTotal),
        externalMb: mb(m.external),
        arrayBuffersMb: mb(m.arrayBuffers),
        searchCache: searchCacheStats(),
      });
    };
    setInterval(logMemory, settings.MEMORY_LOG_SECONDS * 1000).unref();
  }
  if (!holder.sampleSeedHook) {
    holder.sampleSeedHook = true;
    onCreated(seedSample);
  }
  // Open the database (and apply migrations) now, so the first request does not pay for it.
  await getDb().catch((error: unknown) => {
    console.error("Could not open the database:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
  // Added first, so it runs last: the schedule's hook still needs the database to release its lease.
  if (!holder.shutdownHooks) onShutdown("close the database", closeDatabase);
  // Several instances on one PostgreSQL database see each other's cache revalidations (PGlite has one process).
  const { DATABASE_URL } = env();
  if (DATABASE_URL && !building && !holder.shutdownHooks) {
    const sharing = await shareCacheTags(await getDb(), DATABASE_URL);
    onShutdown("stop sharing cache revalidations", sharing.close);
  }
  holder.shutdownHooks = true;
  // `next build` loads instrumentation too; only a serving process runs the schedules.
  if (!building) startJobs(await getDb());
}
