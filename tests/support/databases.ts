// Real databases for integration tests: an in-memory PGlite, and a fresh database on the
// PostgreSQL server when DATABASE_URL is set. Nothing is mocked.
import postgres from "postgres";
import { openPglite, openPostgres, type Connection } from "@/db/connect";

export type Driver = "pglite" | "postgres";

export function drivers(): Driver[] {
  const all: Driver[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  // TEST_DRIVERS=postgres narrows a run to one driver (CI's second pass: the first already ran PGlite).
  const only = process.env.TEST_DRIVERS?.split(",").map((d) => d.trim());
  return only ? all.filter((d) => only.includes(d)) : all;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Opens a migrated, empty database; `close()` also drops a server database. */
export type TestConnection = Connection & { url?: string };

export async function openTestDatabase(driver: Driver): Promise<TestConnection> {
  if (driver === "pglite") return openPglite(null);
  const base = process.env.DATABASE_URL!;
  const name = `agora_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = withDatabase(base, name);
  const conn = await openPostgres(url, { max: 4 });
  return {
    ...conn,
    url,
    close: async () => {
      await conn.close();
      const cleanup = postgres(base, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
