// Applies the committed SQL migrations; safe to run at every start (drizzle records what ran).
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

export async function migratePglite(client: PGlite): Promise<void> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  await migrate(drizzle(client), { migrationsFolder });
}

export async function migratePostgres(url: string): Promise<void> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // One connection, so the advisory lock that serialises concurrent starts is held by the migrating session.
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727274)`;
    await migrate(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(727274)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
