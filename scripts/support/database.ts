// The database a command works on, as the settings name it. A command a person runs stops with what is wrong
// (a bad setting, a database in use by another process, a server that refuses) in their words, never a stack trace.
import { openDatabase, type Connection } from "@/db/connect";
import { env, type Env } from "@/lib/env";

function stop(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

/** The validated settings, or the process stops naming every bad one. */
export function settingsOrExit(): Env {
  try {
    return env();
  } catch (error) {
    stop(error);
  }
}

/** DATABASE_URL's PostgreSQL database, or the embedded one in PGLITE_DIR; or the process stops in one line. */
export async function openConfiguredDatabase(): Promise<Connection> {
  const { DATABASE_URL, PGLITE_DIR } = settingsOrExit();
  try {
    return await openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: PGLITE_DIR });
  } catch (error) {
    stop(error);
  }
}
