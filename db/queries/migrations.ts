// Which committed migrations the database has applied, for the readiness check (lib/readiness.ts).
import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder } from "../migrate";
import { rowsOf } from "../rows";
import type { Db } from "../types";

type JournalEntry = { tag: string; when: number };

/** The migrations this build ships, from drizzle-kit's journal. */
export async function readMigrationJournal(folder = migrationsFolder): Promise<JournalEntry[]> {
  const journal = JSON.parse(await fs.readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * The journal entries the database has not applied. Drizzle's migrator records each applied migration with its
 * journal time (`created_at`); a database it never ran on has no such table, so everything is pending.
 */
export async function pendingMigrations(db: Db, journal: JournalEntry[]): Promise<JournalEntry[]> {
  const exists = rowsOf<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  );
  if (!exists[0]?.present) return journal;
  const rows = rowsOf<{ created_at: string | number }>(
    await db.execute(sql`select created_at from drizzle.__drizzle_migrations`),
  );
  const applied = new Set(rows.map((r) => Number(r.created_at)));
  return journal.filter((entry) => !applied.has(entry.when));
}
