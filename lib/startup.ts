// Node-only start-up checks, loaded by instrumentation.ts on the Node.js runtime.
import { env } from "@/lib/env";
import { getDb } from "@/db";

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
}
