// Node-only start-up, loaded by instrumentation.ts on the Node.js runtime: checks, then the schedule.
import { env } from "@/lib/env";
import { getDb } from "@/db";
import { logError, logInfo } from "@/lib/log";
import { startScheduledVerification } from "@/lib/probe/scheduled-verification";

const holder = globalThis as unknown as { __verifySchedule?: boolean };

export async function startUp(): Promise<void> {
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // Open the database (and apply migrations) now, so the first request does not pay for it.
  await getDb().catch((error: unknown) => {
    console.error("Could not open the database:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
  const { VERIFY_SCHEDULE_DISABLED, VERIFY_INTERVAL_SECONDS } = env();
  // `next build` loads instrumentation too; only a serving process runs the schedule.
  if (VERIFY_SCHEDULE_DISABLED || holder.__verifySchedule || process.env.NEXT_PHASE === "phase-production-build") return;
  holder.__verifySchedule = true;
  const schedule = startScheduledVerification(await getDb(), {
    intervalMs: VERIFY_INTERVAL_SECONDS * 1000,
    onRun: (summary) => logInfo("scheduled verification", summary),
    onError: (error) => logError("scheduled verification failed", error),
  });
  logInfo("scheduled verification started", { intervalSeconds: VERIFY_INTERVAL_SECONDS, holder: schedule.holder });
}
