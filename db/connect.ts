// Opens a migrated database on either driver. `lib/database.ts` keeps one per process for the app.
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import { migratePglite, migratePostgres } from "./migrate";
import type { Db } from "./types";
import { withConnectionDeadline, type DeadlineOptions } from "./connection-deadline";
import { lockPgliteDir } from "./pglite-lock";

export type Connection = {
  db: Db;
  driver: "pglite" | "postgres";
  /** True when an embedded database was created by this call (it has no data yet). */
  created: boolean;
  /** `select 1` on the driver itself, without the app's deadline and retries (db/health.ts times it). */
  ping: () => Promise<unknown>;
  close: () => Promise<void>;
};

/**
 * PGlite's buffer cache in MB. PostgreSQL's default (128 MB) is allocated and zeroed inside the WebAssembly memory
 * at start, so it is resident in the app's own process from the first second, on top of the kernel's page cache
 * that already holds the same files. 16 MB holds the whole default catalogue (11 MB at 2,000 listings) and cuts
 * the server's RSS by about 120 MB; `PGLITE_SHARED_BUFFERS_MB` changes it (bench/RESULTS.md, "Memory").
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

type PgliteOptions = {
  /** PostgreSQL's shared_buffers inside PGlite, in MB (PGLITE_SHARED_BUFFERS_MB when unset). */
  sharedBuffersMb?: number;
};

/** PGlite's own start parameters plus the memory bound (`startParams` replaces PGlite's, so they are repeated). */
export function pgliteStartParams(defaults: readonly string[], options: PgliteOptions = {}): string[] {
  const mb = options.sharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB;
  if (!Number.isInteger(mb) || mb < 1) throw new Error(`sharedBuffersMb must be a whole number of MB ≥ 1, got ${mb}`);
  return [...defaults, "-c", `shared_buffers=${mb}MB`];
}

export async function openPglite(dataDir: string | null, options: PgliteOptions = {}): Promise<Connection> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  let created = true;
  let dir: string | undefined;
  let unlock = () => {};
  if (dataDir) {
    dir = path.resolve(dataDir);
    created = !fs.existsSync(path.join(dir, "PG_VERSION"));
    fs.mkdirSync(dir, { recursive: true });
    unlock = lockPgliteDir(dataDir);
  }
  let client;
  try {
    client = await PGlite.create({
      dataDir: dir,
      extensions: { pg_trgm },
      startParams: pgliteStartParams(PGlite.defaultStartParams, options),
    });
    await migratePglite(client);
  } catch (error) {
    await client?.close().catch(() => {});
    unlock();
    throw error;
  }
  const opened = client;
  return {
    db: drizzle(opened, { schema }) as unknown as Db,
    driver: "pglite",
    created,
    ping: () => opened.query("select 1"),
    close: async () => {
      try {
        await opened.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * The wait before a connection is opened again after one failed. The driver's default grows as 3^n / 100 s up to
 * 20 s, and n counts the failures of the whole pool: after a restart of a few seconds every connection waited up
 * to 20 s before trying the server that was long back. Capped at half a second (a handful of connection
 * attempts per second against a server that is down).
 */
function reconnectDelaySeconds(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 0.5);
}

type PostgresOptions = {
  max?: number;
  /** Deadlines and read retries while the server restarts (db/connection-deadline.ts); none when unset. */
  deadline?: DeadlineOptions;
};

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Connection> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  await migratePostgres(url);
  // A server that is down or restarting is reported within seconds (the default waits 30 s to connect);
  // the driver opens fresh connections on the next query once it is back.
  const client = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: 5,
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
  });
  const bounded = options.deadline ? withConnectionDeadline(client, options.deadline) : client;
  return {
    db: drizzle(bounded, { schema }) as unknown as Db,
    driver: "postgres",
    created: false,
    ping: () => client`select 1`,
    close: () => client.end({ timeout: 5 }),
  };
}

export function openDatabase(
  config: { databaseUrl?: string; pgliteDir: string; pglite?: PgliteOptions } & PostgresOptions,
): Promise<Connection> {
  const { databaseUrl, pgliteDir, pglite, ...options } = config;
  return databaseUrl ? openPostgres(databaseUrl, options) : openPglite(pgliteDir, pglite);
}
