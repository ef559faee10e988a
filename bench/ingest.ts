// npm run bench:ingest — ingestion's benchmark: ingest N (default 10,000) upstream entries in the official MCP
// Registry shape, served by the fixture registry on loopback, into a fresh PostgreSQL database (DATABASE_URL) or
// PGlite (--driver pglite). Three runs: the first (everything new), the second (nothing changed: asks only for
// what changed since the high-water mark), and a full re-read with the high-water mark cleared (every page again,
// nothing changed). For each: time, the process's peak RSS, and the rows the run wrote in the whole database
// next to the candidates it counted as new or changed. Candidate checks are left out (limit 0):
// they probe servers, which is the checks' cost, not ingestion's.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openPglite, openPostgres, type Connection } from "@/db/connect";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { ingestSources } from "@/db/schema";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { fixture, startFixtureRegistry, type RegistryEntry } from "../tests/support/fixture-registry";

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "10000" }, driver: { type: "string", default: "postgres" } },
});
const count = Number(args.count);
const base = fixture<Record<string, unknown>>("io.decisionrules.mcp-server.json");

// Every entry a distinct server with one remote (on a closed loopback port: never probed here), one in ten also
// with an older, non-latest version, every updatedAt distinct so the high-water mark is the last one.
const entries: RegistryEntry[] = [];
for (let i = 0; i < count; i++) {
  const updatedAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const server = {
    ...base,
    name: `io.github.bench${i}/server-${i}`,
    title: `Bench server ${i}`,
    description: `Generated entry ${i} for the ingestion benchmark.`,
    remotes: [{ type: "streamable-http", url: `http://127.0.0.1:9/bench/${i}` }],
  };
  entries.push({ server, updatedAt });
}

// Rows written by a run: every row of every table whose xmin (the transaction that last wrote it) is newer than
// the run's start. Exact and the same on both drivers (a fresh database: no transaction-id wraparound). A row
// written twice in one run counts once.
async function txid(conn: Connection): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await conn.db.execute(sql`select (txid_current() % 4294967296)::text as n`));
  return Number(row!.n);
}
async function rowsWrittenSince(conn: Connection, since: number): Promise<number> {
  const tables = rowsOf<{ t: string }>(
    await conn.db.execute(
      sql`select quote_ident(schemaname) || '.' || quote_ident(relname) as t from pg_stat_user_tables`,
    ),
  ).map((r) => r.t);
  let total = 0;
  for (const t of tables) {
    const [row] = rowsOf<{ n: string }>(
      await conn.db.execute(sql.raw(`select count(*)::text as n from ${t} where xmin::text::bigint > ${since}`)),
    );
    total += Number(row!.n);
  }
  return total;
}

async function open(): Promise<{ conn: Connection; drop: () => Promise<void> }> {
  if (args.driver === "pglite") return { conn: await openPglite(null), drop: async () => {} };
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("Set DATABASE_URL (a PostgreSQL server) or pass --driver pglite.");
  const name = `agora_bench_ingest_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const conn = await openPostgres(dbUrl.toString(), { max: 4 });
  return {
    conn,
    drop: async () => {
      await conn.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

const registry = await startFixtureRegistry(entries, 100);
const { conn, drop } = await open();
const sources = parseIngestSources(`mcp-registry=${registry.url}`);
try {
  console.log(
    `Ingesting ${count.toLocaleString("en-US")} entries on ${args.driver}; load average ${(await import("node:os"))
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    "| run | time | peak RSS | rows written (database) | candidates new or changed (run) | pages | requests |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const runs: Array<[string, () => Promise<void>]> = [
    ["first (all new)", async () => {}],
    ["second (nothing changed)", async () => {}],
    [
      "full re-read, nothing changed",
      async () => void (await conn.db.update(ingestSources).set({ highWaterMark: null })),
    ],
  ];
  for (const [label, prepare] of runs) {
    await prepare();
    const before = await txid(conn);
    registry.requests.length = 0;
    const started = performance.now();
    const summary = await runIngest(conn.db, sources, { allowPrivateHosts: true, limit: 0 });
    const ms = performance.now() - started;
    const run = summary.sources[0]!;
    if (!run.completed) throw new Error(`the ${label} run did not finish: ${run.errors.join("; ")}`);
    const rss = Math.round(process.resourceUsage().maxRSS / 1024);
    const written = await rowsWrittenSince(conn, before);
    console.log(
      `| ${label} | ${(ms / 1000).toFixed(2)} s | ${rss} MB | ${written} | ${run.counts.written} | ${run.counts.pages} | ${registry.requests.length} |`,
    );
  }
} finally {
  await registry.close();
  await drop();
}
