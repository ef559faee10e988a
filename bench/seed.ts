// The bench's catalogue: a fresh database (PostgreSQL: dropped and created; PGlite: a new directory) with the
// sample catalogue and N synthetic listings generated in SQL (generate_series, 100,000 rows a statement).
import fs from "node:fs";
import { sql as dsql } from "drizzle-orm";
import postgres from "postgres";
import { openPglite, openPostgres } from "@/db/connect";
import { seedSampleCatalogue, seedSyntheticBulk } from "@/lib/sample-catalogue/seed";

export type BenchDatabase = { driver: "postgres" | "pglite"; serverUrl: string; pgliteDir: string };

/** Drops and creates the PostgreSQL database `url` names (through the server's `postgres` database). */
export async function recreatePostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.unsafe(`create database "${name}"`);
  await sql.end();
}

/** Seeds and returns the seconds it took. */
export async function seedBenchDatabase(target: BenchDatabase, count: number): Promise<number> {
  const started = Date.now();
  // Cached pages and data from an earlier run describe another catalogue.
  for (const dir of [".next/server/route-cache", ".next/cache/fetch-cache"])
    fs.rmSync(dir, { recursive: true, force: true });
  if (target.driver === "postgres") {
    await recreatePostgresDatabase(target.serverUrl);
    const conn = await openPostgres(target.serverUrl, { max: 4 });
    await conn.db.execute(dsql`set maintenance_work_mem = '256MB'`);
    await seedSampleCatalogue(conn.db);
    await seedSyntheticBulk(conn.db, count, new Date(), (n) =>
      process.stdout.write(`\rseeding ${n.toLocaleString("en-US")}…`),
    );
    await conn.close();
  } else {
    fs.rmSync(target.pgliteDir, { recursive: true, force: true });
    const conn = await openPglite(target.pgliteDir);
    await seedSampleCatalogue(conn.db);
    await seedSyntheticBulk(conn.db, count);
    await conn.close();
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `\nseeded ${count.toLocaleString("en-US")} synthetic listings on ${target.driver} in ${seconds.toFixed(1)} s`,
  );
  return seconds;
}

export async function openBenchDatabase(target: BenchDatabase) {
  return target.driver === "postgres" ? openPostgres(target.serverUrl, { max: 2 }) : openPglite(target.pgliteDir);
}

/** The production server's settings for a bench: limits that would turn one address's load into 429s are off. */
export function benchServerEnv(
  target: BenchDatabase,
  base: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production" as const,
    NEXT_TELEMETRY_DISABLED: "1",
    SITE_URL: base,
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-secret-0123456789abcdef0123",
    AUTH_TRUST_HOST: "true",
    E2E: "1",
    RATE_LIMIT_DISABLED: "1",
    // The load generator is one address standing in for many clients: the per-client share of the overload limit
    // would refuse its 17th connection (the total limit, MAX_IN_FLIGHT_REQUESTS, stays as deployed).
    MAX_IN_FLIGHT_PER_CLIENT: "0",
    UNSAFE_TEST_MODE: "1",
    CHECK_SCHEDULE_DISABLED: "1",
    DATABASE_URL: target.driver === "postgres" ? target.serverUrl : "",
    PGLITE_DIR: target.pgliteDir,
    ...extra,
  };
}
