// npm run bench [-- --driver postgres|pglite --count 100000 --duration 10 --connections 32 --skip-seed --search-only]
// Seeds N synthetic listings (generated SQL, bulk), times each search kind in the database uncached and prints
// its EXPLAIN ANALYZE, starts the production build, drives load from this (separate) process with autocannon
// and prints throughput, latency percentiles, peak server RSS and ratios to a static page. Search routes are
// measured twice: as deployed (repeats answered by the search cache) and with SEARCH_CACHE_TTL_SECONDS=0.
import { execSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { memoryMb, startProductionServer, waitFor } from "./app-server";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { benchServerEnv, openBenchDatabase, seedBenchDatabase, type BenchDatabase } from "./seed";
import { sql as dsql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { rankedSearchSql } from "@/db/queries/search/rank";
import { searchListings } from "@/db/queries/search";
import type { Db } from "@/db/types";
import { searchTerms } from "@/db/queries/search/terms";

const { values: args } = parseArgs({
  options: {
    driver: { type: "string", default: "postgres" },
    count: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3700" },
    "skip-seed": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
    "search-only": { type: "boolean", default: false },
  },
});
const driver = args.driver === "pglite" ? "pglite" : "postgres";
const count = Number(args.count);
const duration = Number(args.duration);
const connections = Number(args.connections);
const port = Number(args.port);
const base = `http://localhost:${port}`;
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_bench";
const searchOnly = args["search-only"];

// Realistic searches, one row each: [label, query, category filter].
const KINDS: [string, string, string][] = [
  ["rare word", "upscale", ""],
  ["common word (thousands)", "weather", ""],
  ["two words", "token price", ""],
  ["typo", "scrapper", ""],
  ["category word", "finance", ""],
];
const target: BenchDatabase = { driver, serverUrl, pgliteDir: path.resolve("bench/.tmp/pglite") };
const seed = () => seedBenchDatabase(target, count);

type DbTiming = { label: string; q: string; p50: number; p99: number; max: number; total: string; first: string };

/** Each search kind straight through the query module, uncached, one at a time: the database's share. */
async function timeSearches(db: Db): Promise<DbTiming[]> {
  const out: DbTiming[] = [];
  for (const [label, q, category] of KINDS) {
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof searchListings>> | undefined;
    for (let i = 0; i < 25; i++) {
      const started = performance.now();
      last = await searchListings(
        db,
        { terms: searchTerms(q), category, price: "all", sort: "relevance" },
        { limit: 24, offset: 0 },
      );
      if (i >= 5) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]! * 10) / 10;
    out.push({
      label,
      q,
      p50: at(0.5),
      p99: at(0.99),
      max: at(1),
      total: `${last!.total}${last!.capped ? "+" : ""}`,
      first: last!.rows[0]?.name ?? "—",
    });
  }
  return out;
}

/** EXPLAIN ANALYZE of the ranked statement for each kind (the corrected terms for the typo). */
async function explainSearches(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const [label, q] of KINDS) {
    let terms = searchTerms(q)!;
    if (label === "typo") terms = { ...terms, words: ["scraper"], phrase: "scraper", core: "scraper" };
    const rows = rowsOf<Record<string, string>>(
      await db.execute(dsql`explain analyze ${rankedSearchSql(terms, dsql`true`, { limit: 24, offset: 0 })}`),
    );
    // The sort key repeats the whole scoring expression; it says nothing about the plan.
    const plan = rows.map((r) => r["QUERY PLAN"]!).filter((l) => !/Sort Key|Group Key/.test(l));
    parts.push(`### ${label}: "${label === "typo" ? `${q}" → "scraper` : q}"\n${plan.join("\n")}`);
  }
  return parts.join("\n\n");
}

function startServer(extra: Record<string, string> = {}): ChildProcess {
  return startProductionServer(port, benchServerEnv(target, base, extra));
}

async function firstLoadJsKb(pagePath: string): Promise<number> {
  const html = await (await fetch(base + pagePath)).text();
  // Modern browsers skip noModule polyfills, so they are not part of the first load.
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((t) => !/nomodule/i.test(t));
  const srcs = [
    ...new Set(tags.map((t) => /src="([^"]+\.js[^"]*)"/.exec(t)?.[1]).filter((s): s is string => Boolean(s))),
  ];
  let total = 0;
  for (const src of srcs) total += gzipSync(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer())).length;
  return Math.round(total / 102.4) / 10;
}

type Result = { name: string; path: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

type Request = { method?: "POST"; body?: string; headers?: Record<string, string> };

async function load(name: string, urlPath: string, request: Request = {}): Promise<Result> {
  await autocannon({ url: base + urlPath, connections: 4, duration: 2, ...request }); // warm-up
  const r = await autocannon({ url: base + urlPath, connections, duration, ...request });
  return {
    name,
    path: urlPath,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

const mcpCall = (query: string): Request => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_servers", arguments: { query, limit: 10 } },
  }),
});

function printRow(r: Result) {
  console.log(
    `${r.name.padEnd(44)} ${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  errors ${r.errors} non-2xx ${r.non2xx}`,
  );
}

async function loadAll(targets: [string, string, Request?][]): Promise<Result[]> {
  const results: Result[] = [];
  for (const [name, p, request] of targets) {
    const r = await load(name, p, request);
    results.push(r);
    printRow(r);
  }
  return results;
}

const searchTargets = (suffix: string, withPage: boolean): [string, string, Request?][] =>
  KINDS.flatMap(([label, q, category]): [string, string, Request?][] => {
    const query = `q=${encodeURIComponent(q)}${category ? `&category=${encodeURIComponent(category)}` : ""}`;
    const rows: [string, string, Request?][] = [[`API ${label}${suffix}`, `/api/mcp-agents?${query}&limit=24`]];
    if (withPage) rows.push([`page ${label}${suffix}`, `/marketplace?${query}`]);
    rows.push([`MCP search_servers ${label}${suffix}`, "/api/mcp", mcpCall(q)]);
    return rows;
  });

async function main() {
  const startedAt = new Date();
  const load1 = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
  if (args.build || !fs.existsSync(".next/BUILD_ID"))
    execSync("npx next build", { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (!args["skip-seed"]) await seed();
  const conn = await openBenchDatabase(target);
  const dbTimes = await timeSearches(conn.db);
  const plans = await explainSearches(conn.db);
  await conn.close();
  console.log("\n| search (query module, uncached, sequential) | p50 ms | p99 ms | max ms | matches | first result |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const t of dbTimes)
    console.log(`| ${t.label} "${t.q}" | ${t.p50} | ${t.p99} | ${t.max} | ${t.total} | ${t.first} |`);

  let results: Result[] = [];
  let rss = 0;
  let js = 0;
  let server = startServer();
  try {
    await waitFor(`${base}/terms-of-service`);
    const fixed: [string, string, Request?][] = [["static /terms-of-service", "/terms-of-service"]];
    if (!searchOnly) fixed.push(["/marketplace", "/marketplace"], ["detail page", "/marketplace/synthetic-12345"]);
    results = await loadAll([...fixed, ...searchTargets("", !searchOnly)]);
    if (!searchOnly) js = await firstLoadJsKb("/marketplace");
    rss = memoryMb(server.pid!, "VmHWM");
  } finally {
    server.kill("SIGTERM");
  }
  await new Promise((r) => setTimeout(r, 1500));
  // Every request reaches the database: what the cache saves, and the path an unseen query takes.
  server = startServer({ SEARCH_CACHE_TTL_SECONDS: "0" });
  try {
    await waitFor(`${base}/terms-of-service`);
    results.push(...(await loadAll(searchTargets(" (no cache)", false))));
    rss = Math.max(rss, memoryMb(server.pid!, "VmHWM"));
  } finally {
    server.kill("SIGTERM");
  }

  const staticRps = results[0]!.rps;
  console.log(
    `\n## ${driver} · ${count.toLocaleString("en-US")} listings · c=${connections} · ${duration}s · ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · ${Math.round(os.totalmem() / 2 ** 30)} GiB · load at start ${load1}\n`,
  );
  console.log("| route | req/s | p50 ms | p99 ms | ratio to static |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of results)
    console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / staticRps).toFixed(2)} |`);
  console.log(`\nserver peak RSS: ${rss} MB${js ? ` · first-load JS for /marketplace: ${js} kB gzip` : ""}`);
  console.log(`\nEXPLAIN ANALYZE (ranked search, PostgreSQL plans as the bench database runs them):\n\n${plans}`);
}

await main();
