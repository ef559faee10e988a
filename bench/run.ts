// npm run bench [-- --driver postgres|pglite --count 100000 --duration 10 --connections 32 --skip-seed]
// Seeds N synthetic listings, starts the production build, drives load from this (separate) process
// with autocannon and prints throughput, latency percentiles, peak server RSS and ratios to a static page.
import { spawn, execSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { openPglite, openPostgres } from "@/db/connect";
import { seedSampleCatalogue, seedSynthetic } from "@/db/seed";

const { values: args } = parseArgs({
  options: {
    driver: { type: "string", default: "postgres" },
    count: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3700" },
    "skip-seed": { type: "boolean", default: false },
    build: { type: "boolean", default: false },
  },
});
const driver = args.driver === "pglite" ? "pglite" : "postgres";
const count = Number(args.count);
const duration = Number(args.duration);
const connections = Number(args.connections);
const port = Number(args.port);
const base = `http://localhost:${port}`;
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_bench";
const pgliteDir = path.resolve("bench/.tmp/pglite");

async function seed(): Promise<void> {
  const started = Date.now();
  // Cached pages and data from an earlier run describe another catalogue.
  for (const dir of [".next/server/route-cache", ".next/cache/fetch-cache"]) fs.rmSync(dir, { recursive: true, force: true });
  if (driver === "postgres") {
    const name = new URL(serverUrl).pathname.slice(1);
    const admin = new URL(serverUrl);
    admin.pathname = "/postgres";
    const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
    await sql.end();
    const conn = await openPostgres(serverUrl, { max: 4 });
    await seedSampleCatalogue(conn.db);
    await seedSynthetic(conn.db, count);
    await conn.close();
  } else {
    fs.rmSync(pgliteDir, { recursive: true, force: true });
    const conn = await openPglite(pgliteDir);
    await seedSampleCatalogue(conn.db);
    await seedSynthetic(conn.db, count);
    await conn.close();
  }
  console.log(`seeded ${count} synthetic listings on ${driver} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function explainSearch(): Promise<string> {
  if (driver !== "postgres") return "(EXPLAIN shown for the PostgreSQL server only)";
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const rows = await sql.unsafe(
    `explain analyze select id from listings where status = 'approved' and search_text ilike '%quantum energy ledger%' order by verified desc, lower(name), id limit 24`,
  );
  await sql.end();
  return rows.map((r) => (r as Record<string, string>)["QUERY PLAN"]).join("\n");
}

function startServer(): ChildProcess {
  const env = {
    ...process.env,
    NODE_ENV: "production" as const,
    NEXT_TELEMETRY_DISABLED: "1",
    SITE_URL: base,
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-only-secret-0123456789abcdef0123",
    AUTH_TRUST_HOST: "true",
    // The MCP endpoint's per-address limit would turn a one-address load test into 429s.
    E2E: "1",
    RATE_LIMIT_DISABLED: "1",
    VERIFY_SCHEDULE_DISABLED: "1",
    DATABASE_URL: driver === "postgres" ? serverUrl : "",
    PGLITE_DIR: pgliteDir,
  };
  return spawn(process.execPath, ["--import", "./server/client-address.mjs", "node_modules/next/dist/bin/next", "start", "-p", String(port)], { env, stdio: ["ignore", "ignore", "inherit"] });
}

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not answer ${url}`);
}

/** Peak resident memory of the server and its children, from /proc (Linux). */
function peakRssMb(pid: number): number {
  const pids = [pid, ...execSync(`pgrep -P ${pid} || true`).toString().split(/\s+/).filter(Boolean).map(Number)];
  let total = 0;
  for (const p of pids) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) total += Number(m[1]) / 1024;
    } catch {}
  }
  return Math.round(total);
}

async function firstLoadJsKb(pagePath: string): Promise<number> {
  const html = await (await fetch(base + pagePath)).text();
  // Modern browsers skip noModule polyfills, so they are not part of the first load.
  const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]).filter((t) => !/nomodule/i.test(t));
  const srcs = [...new Set(tags.map((t) => /src="([^"]+\.js[^"]*)"/.exec(t)?.[1]).filter((s): s is string => Boolean(s)))];
  let total = 0;
  for (const src of srcs) total += gzipSync(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer())).length;
  return Math.round(total / 102.4) / 10;
}

type Result = { name: string; path: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

type Request = { method?: "POST"; body?: string; headers?: Record<string, string> };

async function load(name: string, urlPath: string, request: Request = {}): Promise<Result> {
  await autocannon({ url: base + urlPath, connections: 4, duration: 2, ...request }); // warm-up
  const r = await autocannon({ url: base + urlPath, connections, duration, ...request });
  return { name, path: urlPath, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

async function main() {
  if (args.build || !fs.existsSync(".next/BUILD_ID")) execSync("npx next build", { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (!args["skip-seed"]) await seed();
  const plan = await explainSearch();
  const server = startServer();
  try {
    await waitFor(`${base}/terms-of-service`);
    const detail = "/marketplace/synthetic-12345";
    // One stateless MCP tools/call, as an agent sends it after initializing.
    const mcpSearch: Request = {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_servers", arguments: { query: "quantum energy ledger", limit: 10 } } }),
    };
    const targets: [string, string, Request?][] = [
      ["static /terms-of-service", "/terms-of-service"],
      ["/marketplace", "/marketplace"],
      ["/marketplace?q=…", "/marketplace?q=quantum%20energy%20ledger"],
      ["/api/mcp-agents?q=…&limit=24", "/api/mcp-agents?q=quantum%20energy%20ledger&limit=24"],
      ["detail page", detail],
      ["MCP search_servers", "/api/mcp", mcpSearch],
    ];
    const results: Result[] = [];
    for (const [name, p, request] of targets) {
      const r = await load(name, p, request);
      results.push(r);
      console.log(`${name.padEnd(30)} ${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  errors ${r.errors} non-2xx ${r.non2xx}`);
    }
    const staticRps = results[0]!.rps;
    const js = await firstLoadJsKb("/marketplace");
    const rss = peakRssMb(server.pid!);
    console.log(`\n## ${driver} · ${count.toLocaleString("en-US")} listings · c=${connections} · ${duration}s · ${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · ${Math.round(os.totalmem() / 2 ** 30)} GiB\n`);
    console.log("| route | req/s | p50 ms | p99 ms | ratio to static |");
    console.log("|---|---:|---:|---:|---:|");
    for (const r of results) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / staticRps).toFixed(2)} |`);
    console.log(`\nserver peak RSS: ${rss} MB · first-load JS for /marketplace: ${js} kB gzip`);
    console.log(`\nEXPLAIN ANALYZE (search):\n${plan}`);
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
