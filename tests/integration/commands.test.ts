// Every database command the README and the guides give, run as a person runs it: `npm run <name>` in a fresh
// process with only what a user sets (PATH, a fresh HOME, the database setting, the command's own settings),
// against a fresh database: a new PGlite directory, and a new PostgreSQL database when DATABASE_URL is set. A
// command that crashes or prints a stack trace fails here. The long-running commands run elsewhere, as they are:
// `npm run dev` and `npm run sandbox` in sandbox.test.ts, `npm run start:prod` in tests/e2e/production.spec.ts,
// the served `npx` and `npm install` lines in downloads-install.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { drivers } from "../support/databases";
import { startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { npmRun, STACK_FRAME, type Run } from "../support/commands";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-commands-"));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const run = (script: string, args: string[], env: Record<string, string>) =>
  npmRun(script, args, env, path.join(tmp, "home"));

/** A database a newcomer starts from: an embedded one in a new directory, or a new, empty PostgreSQL database. */
async function freshDatabase(driver: "pglite" | "postgres"): Promise<Record<string, string>> {
  if (driver === "pglite") return { PGLITE_DIR: path.join(tmp, `pglite-${Math.random().toString(36).slice(2, 8)}`) };
  const base = process.env.DATABASE_URL!;
  const name = `agora_commands_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  cleanups.push(async () => {
    const cleanup = postgres(base, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
    await cleanup.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

function expectClean(run: Run, code = 0) {
  expect(run.output).not.toMatch(STACK_FRAME);
  expect(run.code, run.output).toBe(code);
}

describe.each(drivers())("the documented commands on a fresh %s database", (driver) => {
  it("db:migrate, db:seed, ingest, check:all, sales:index and admin:grant run without a crash or a stack trace", async () => {
    const database = await freshDatabase(driver);

    const migrate = await run("db:migrate", [], database);
    expectClean(migrate);
    expect(migrate.output).toMatch(/^Migrations applied \(/m);

    const seed = await run("db:seed", [], database);
    expectClean(seed);
    expect(seed.output).toMatch(/Inserted 44 listings/);

    // Without a source it says what to set; with one it reads it (a registry on loopback, which the probe may
    // reach only because the user said so).
    const idle = await run("ingest", [], database);
    expectClean(idle);
    expect(idle.output).toContain("INGEST_SOURCES is not set");
    const registry: FixtureRegistry = await startFixtureRegistry([
      {
        server: {
          name: "io.github.commands/tool",
          description: "A listed server.",
          remotes: [{ type: "streamable-http", url: "http://127.0.0.1:9/mcp" }],
        },
        updatedAt: "2026-01-07T00:00:00Z",
      },
    ]);
    cleanups.push(registry.close);
    const ingest = await run("ingest", [], {
      ...database,
      INGEST_SOURCES: `mcp-registry=${registry.url}`,
      PROBE_ALLOW_PRIVATE_HOSTS: "true",
    });
    expectClean(ingest);
    expect(ingest.output).toMatch(/1 seen/);
    // Why each candidate was not listed, one reason a line (port 9 is one fetch never connects to).
    expect(ingest.output).toMatch(/^Checked 1 candidates, 0 newly listed:$/m);
    expect(ingest.output).toMatch(/^ +1 {2}not reachable$/m);
    expect(registry.requests.length).toBeGreaterThan(0);

    // Every sample listing is on a reserved name: the probe asks no DNS server, so the run is quick and offline.
    const verify = await run("check:all", [], database);
    expectClean(verify);
    expect(verify.output).toMatch(/^Probed \d+ listings/m);

    const sales = await run("sales:index", [], database);
    expectClean(sales);
    expect(sales.output).toContain("CHAIN_RPC_URLS is not set");

    const usage = await run("admin:grant", [], database);
    expectClean(usage, 2);
    expect(usage.output).toContain("Usage: npm run admin:grant -- <who>");
    const nobody = await run("admin:grant", ["nobody@users.example.com"], database);
    expectClean(nobody, 1);
    expect(nobody.output.trim()).toBe(
      'No account has confirmed the address "nobody@users.example.com". Unconfirmed addresses count for nothing: confirm it first, or name the user id.',
    );
  }, 300_000);
});
