import "server-only";
import { env } from "@/lib/env";
import { sql } from "drizzle-orm";
import { openDatabase, type Connection } from "./connect";
import { setHealthPing } from "./health";
import { probeSampleListings } from "./sample-probes";
import { seedSampleCatalogue } from "./seed";
import type { Db } from "./types";

export type { Db };

// One connection per process, kept on globalThis so dev-mode reloads do not open a second PGlite.
const holder = globalThis as unknown as { __mcpDb?: Promise<Connection> };

async function connect(): Promise<Connection> {
  const { DATABASE_URL, PGLITE_DIR } = env();
  const conn = await openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: PGLITE_DIR });
  setHealthPing(() => conn.db.execute(sql`select 1`));
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

/** Points the app at an already-open database (integration tests drive route handlers this way). */
export function setDatabase(conn: Connection): void {
  holder.__mcpDb = Promise.resolve(conn);
  setHealthPing(() => conn.db.execute(sql`select 1`));
}
