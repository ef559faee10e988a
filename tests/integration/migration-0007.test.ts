// Migration 0007 on data written before it: GitHub ids come from the account links, provider
// addresses and addresses proven by a used reset link count as confirmed, every other address does not.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/postgres-js";
import { migrate as migratePg } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { migrationsFolder } from "@/db/migrate";
import { drivers } from "../support/databases";

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** A copy of the migrations folder whose journal stops before 0007. */
function foldersBefore0007(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-mig-"));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < 7);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe.each(drivers())("migration 0007 backfill on %s", (driver) => {
  let query: Query;
  let upgrade: () => Promise<void>;
  let close: () => Promise<void>;
  const before = foldersBefore0007();

  beforeAll(async () => {
    if (driver === "pglite") {
      const client = await PGlite.create({ extensions: { pg_trgm } });
      await migrate(drizzle(client), { migrationsFolder: before });
      query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
      upgrade = () => migrate(drizzle(client), { migrationsFolder });
      close = () => client.close();
    } else {
      const name = `agora_mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await migratePg(drizzlePg(client), { migrationsFolder: before });
      query = async (text) => [...(await client.unsafe(text))] as Record<string, unknown>[];
      upgrade = () => migratePg(drizzlePg(client), { migrationsFolder });
      close = async () => {
        await client.end();
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      };
    }
  });
  afterAll(async () => {
    await close?.();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it("backfills GitHub ids and confirmed addresses, leaving plain password accounts unconfirmed", async () => {
    await query(`
      insert into users (id, email, name, github_login, password_hash) values
        ('00000000-0000-4000-8000-000000000001', 'octo@example.com', 'Octo', 'octo', null),
        ('00000000-0000-4000-8000-000000000002', 'pw@example.com', 'Plain', null, 'scrypt$x'),
        ('00000000-0000-4000-8000-000000000003', 'reset@example.com', 'Reset', null, 'scrypt$y'),
        ('00000000-0000-4000-8000-000000000004', null, 'No Mail', 'nomail', null)`);
    await query(`
      insert into accounts (user_id, provider, provider_account_id) values
        ('00000000-0000-4000-8000-000000000001', 'github', '583231'),
        ('00000000-0000-4000-8000-000000000004', 'github', '9919')`);
    await query(`
      insert into password_reset_tokens (user_id, token_hash, expires_at, used_at) values
        ('00000000-0000-4000-8000-000000000003', 'used', now(), now() - interval '1 day'),
        ('00000000-0000-4000-8000-000000000002', 'unused', now() + interval '1 hour', null)`);

    await upgrade();

    const rows = await query(
      `select name, github_id, email_verified_at is not null as verified from users order by name`,
    );
    expect(rows.map((r) => ({ name: r.name, githubId: r.github_id, verified: r.verified }))).toEqual([
      { name: "No Mail", githubId: "9919", verified: false },
      { name: "Octo", githubId: "583231", verified: true },
      { name: "Plain", githubId: null, verified: false },
      { name: "Reset", githubId: null, verified: true },
    ]);
  });
});
