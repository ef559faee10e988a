import "server-only";
// The app's door to the database: opens PGlite or PostgreSQL as the settings say (db/ takes them as plain
// values), runs the hooks registered for a brand-new database (lib/startup.ts seeds the sample catalogue), keeps
// one connection per process, and says whether the database is down (the proxy's 503, the failed page's report).
import { env } from "@/lib/env";
import { openDatabase, type Connection } from "@/db/connect";
import { setHealthPing, suspectDatabase } from "@/db/health";
import type { Db } from "@/db/types";
import { processState } from "@/db/process-state";

export type { Db };
export { databaseDown, reportDatabaseFailure } from "@/db/health";

/** Work for a database this process has just created (an empty embedded one), before anyone reads it. */
type CreatedHook = (db: Db) => Promise<void>;

// One connection per process, kept on globalThis so dev-mode reloads do not open a second PGlite; the hooks with
// it, since the module that registers them (instrumentation's bundle) need not be the one that connects.
const holder = processState("database", () => ({
  connection: undefined as Promise<Connection> | undefined,
  createdHooks: [] as CreatedHook[],
}));

/** Registers work to run when the connection finds a brand-new database (registered before the first getDb()). */
export function onCreated(hook: CreatedHook): void {
  holder.createdHooks.push(hook);
}

// A query that cannot get a connection in this time fails (the request answers 503) instead of hanging with the
// driver, and a read whose connection died is asked again until then (db/connection-deadline.ts). The soak at 32
// connections, two cores and a pool of 10 never waited this long without a fault.
const CONNECTION_DEADLINE_MS = 4_000;

async function connect(): Promise<Connection> {
  const { DATABASE_URL, PGLITE_DIR, PGLITE_SHARED_BUFFERS_MB } = env();
  const conn = await openDatabase({
    databaseUrl: DATABASE_URL,
    pgliteDir: PGLITE_DIR,
    pglite: { sharedBuffersMb: PGLITE_SHARED_BUFFERS_MB },
    deadline: { ms: CONNECTION_DEADLINE_MS, onConnectionFailure: suspectDatabase },
  });
  setHealthPing(conn.ping);
  if (conn.created) for (const hook of holder.createdHooks) await hook(conn.db);
  return conn;
}

export async function getDb(): Promise<Db> {
  holder.connection ??= connect().catch((error) => {
    holder.connection = undefined;
    throw error;
  });
  return (await holder.connection).db;
}

/** Closes this process's connection (at shutdown); the next getDb() would open a new one. */
export async function closeDatabase(): Promise<void> {
  const open = holder.connection;
  holder.connection = undefined;
  if (open) await (await open).close();
}

/** Points the app at an already-open database (integration tests drive route handlers this way). */
export function setDatabase(conn: Connection): void {
  holder.connection = Promise.resolve(conn);
  setHealthPing(conn.ping);
}
