import "server-only";
// The app's door to the database: opens PGlite or PostgreSQL as the settings say (db/ takes them as plain
// values), seeds a brand-new embedded database with the sample catalogue, and keeps one connection per process.
import { env } from "@/lib/env";
import { openDatabase, type Connection } from "@/db/connect";
import { setHealthPing, suspectDatabase } from "@/db/health";
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import type { Db } from "@/db/types";

export type { Db };

// One connection per process, kept on globalThis so dev-mode reloads do not open a second PGlite.
const holder = globalThis as unknown as { __mcpDb?: Promise<Connection> };

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
  // A brand-new embedded database gets the sample catalogue so a first run shows a full marketplace.
  if (conn.created) {
    await seedSampleCatalogue(conn.db);
    // In the background: the reference server may not be up yet, and start-up must not wait on it.
    void probeSampleListings(conn.db, { attempts: 10 }).catch(() => {});
  }
  return conn;
}

export async function getDb(): Promise<Db> {
  holder.__mcpDb ??= connect().catch((error) => {
    holder.__mcpDb = undefined;
    throw error;
  });
  return (await holder.__mcpDb).db;
}

/** Closes this process's connection (at shutdown); the next getDb() would open a new one. */
export async function closeDatabase(): Promise<void> {
  const open = holder.__mcpDb;
  holder.__mcpDb = undefined;
  if (open) await (await open).close();
}

/** Points the app at an already-open database (integration tests drive route handlers this way). */
export function setDatabase(conn: Connection): void {
  holder.__mcpDb = Promise.resolve(conn);
  setHealthPing(conn.ping);
}
