// npm run bench:search [-- --driver postgres|pglite --count 100000 --duration 10 --connections 32 --rates 25,50,100,200
//                        --queries 5000 --skip-seed --node PATH[,PATH]
//                        --only api,mcp,mcp2026,page,detail,bazaar,notfound,health,bareRoute,bareDynamic,bareStored]
// Search as users do it: every request a different search (bench/queries.ts), against the production build with
// its search cache on as deployed (the cache's hit rate is printed: it should be ~0). Each surface is driven
// closed-loop (the most it does) and open-loop at fixed arrival rates (p50/p99/p99.9 including queueing), next
// to the static terms page, a bare node:http server sending that page's bytes (bench/floor-server.mjs) and a bare
// Next app (bench/bare-next) whose rows are Next's own floor for a route, a page per request and a stored page.
// Also times every query kind in the database alone. Writes bench/.out/latest.json. See bench/README-search.md.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { searchListings } from "@/db/queries/search";
import { rowsOf } from "@/db/rows";
import type { Db } from "@/db/types";
import { searchTerms } from "@/db/queries/search/terms";
import { sql } from "drizzle-orm";
import { crawlPass, sitemapListingPaths, type CrawlPass } from "./crawler";
import {
  buildBareNext,
  cpuMs,
  memoryMb,
  processTree,
  startBareNext,
  startProductionServer,
  waitFor,
} from "./app-server";
import { closedLoop, openLoop, type LoadResult, type Shot } from "./load";
import { buildQuerySet, kindCounts, QUERY_KINDS, type BenchQuery } from "./queries";
import { benchServerEnv, openBenchDatabase, seedBenchDatabase, type BenchDatabase } from "./seed";

const { values: args } = parseArgs({
  options: {
    driver: { type: "string", default: "postgres" },
    count: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    rates: { type: "string", default: "25,50,100,200" },
    queries: { type: "string", default: "5000" },
    port: { type: "string", default: "3362" },
    "floor-port": { type: "string", default: "3363" },
    "bare-port": { type: "string", default: "3364" },
    // The node binaries the servers run on, comma-separated (each gets its own servers, one after the other, in this
    // run): `--node /usr/bin/node,node_modules/.bin/node` compares the machine's Node with the project's.
    node: { type: "string", default: "" },
    only: { type: "string", default: "" },
    label: { type: "string", default: "" },
    "skip-seed": { type: "boolean", default: false },
    // Listing pages the crawler row walks (spread evenly over the sitemaps); 0 skips the row, "all" walks every one.
    crawl: { type: "string", default: "2000" },
    // A directory: the server runs with --cpu-prof and writes its profile there when the run ends.
    "cpu-prof": { type: "string", default: "" },
  },
});
const driver = args.driver === "pglite" ? "pglite" : "postgres";
const count = Number(args.count);
const duration = Number(args.duration);
const connections = Number(args.connections);
const rates = args.rates.split(",").filter(Boolean).map(Number);
const port = Number(args.port);
const base = `http://localhost:${port}`;
const floorBase = `http://127.0.0.1:${args["floor-port"]}`;
const barePort = Number(args["bare-port"]);
const bareBase = `http://127.0.0.1:${barePort}`;
const runtimes = args.node
  ? args.node.split(",").map((n) => (n.includes("/") ? path.resolve(n) : n))
  : [process.execPath];
const target: BenchDatabase = {
  driver,
  serverUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_bench",
  pgliteDir: path.resolve("bench/.tmp/pglite"),
};
const outDir = path.resolve("bench/.out");

type DbKindTiming = { kind: string; n: number; p50: number; p99: number; max: number };

/** Each query kind through the query module, uncached, one at a time (up to 40 queries a kind). */
async function timeKinds(db: Db, queries: BenchQuery[]): Promise<DbKindTiming[]> {
  const out: DbKindTiming[] = [];
  for (const kind of QUERY_KINDS) {
    const sample = queries.filter((q) => q.kind === kind).slice(0, 40);
    const times: number[] = [];
    for (const { q } of sample) {
      const started = performance.now();
      await searchListings(
        db,
        { terms: searchTerms(q), category: "", price: "all", sort: "relevance" },
        { limit: 24, offset: 0 },
      );
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round((times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] ?? NaN) * 10) / 10;
    out.push({ kind, n: times.length, p50: at(0.5), p99: at(0.99), max: at(1) });
  }
  return out;
}

/**
 * The surfaces, each a request maker. Every search surface asks the same searches in the same order, so surfaces
 * compare on the same mix of kinds (slices of a few thousand differ: a run of name fragments costs several times a run
 * of misses). A text comes back only on the next surface, after the previous one's rows (40 s and more): past the
 * search cache's 10 s, as the printed hit rate shows. Detail pages rotate through listings.
 */
function surfaces(queries: BenchQuery[], slugs: string[]): [string, () => Shot][] {
  let si = 0;
  let missing = 0;
  const searches = () => {
    let qi = 0;
    return () => queries[qi++ % queries.length]!.q;
  };
  const mcpOk = (status: number, body: string) =>
    status === 200 && body.includes('"structuredContent"') && !body.includes('"isError":true');
  const [apiQ, mcpQ, mcpModernQ, pageQ, bazaarQ] = [searches(), searches(), searches(), searches(), searches()];
  // MCP 2026-07-28: no handshake, the client's version, info and capabilities ride on each request's _meta.
  const modernMeta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const all: [string, () => Shot][] = [
    ["api", () => ({ path: `/api/mcp-agents?q=${encodeURIComponent(apiQ())}&limit=24` })],
    [
      "mcp",
      () => ({
        path: "/api/mcp",
        headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_servers", arguments: { query: mcpQ(), limit: 24 } },
        }),
        ok: mcpOk,
      }),
    ],
    [
      "mcp2026",
      () => ({
        path: "/api/mcp",
        headers: {
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "search_servers",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_servers", arguments: { query: mcpModernQ(), limit: 24 }, _meta: modernMeta },
        }),
        ok: mcpOk,
      }),
    ],
    ["page", () => ({ path: `/marketplace?q=${encodeURIComponent(pageQ())}` })],
    ["detail", () => ({ path: `/marketplace/${slugs[si++ % slugs.length]}` })],
    ["bazaar", () => ({ path: `/discovery/search?query=${encodeURIComponent(bazaarQ())}` })],
    // Next's render floor on this machine: the layout around a near-empty page (the not-found page after one indexed
    // miss; a 404 is never stored, so each is a render). What a page costs beyond this row is the page's own work.
    ["notfound", () => ({ path: `/marketplace/no-such-listing-${++missing}`, ok: (status) => status === 404 })],
    // And for a route handler: the proxy, Next's routing and the route wrapper around a handler that reads nothing.
    ["health", () => ({ path: "/api/health" })],
  ];
  const only = args.only.split(",").filter(Boolean);
  return only.length ? all.filter(([name]) => only.includes(name)) : all;
}

const NAMES: Record<string, string> = {
  floor: "bare node:http (same bytes)",
  static: "static /terms-of-service",
  nextStatic: "static through Next (?via=next)",
  api: "search API /api/mcp-agents?q=",
  mcp: "MCP search_servers (2025-06-18)",
  mcp2026: "MCP search_servers (2026-07-28)",
  page: "search page /marketplace?q=",
  detail: "detail page /marketplace/<slug>",
  bazaar: "Bazaar /discovery/search?query=",
  notfound: "render floor: not-found page (404)",
  health: "route floor: /api/health",
  bareRoute: "bare Next: route handler",
  bareDynamic: "bare Next: page per request",
  bareStored: "bare Next: stored first render",
};

/** CPU per answer of a closed-loop row: the app's process (and children) and the database's (PostgreSQL's processes). */
type CpuPerAnswer = { appMs: number; dbMs: number | null };
type Measured = LoadResult & { cpu: CpuPerAnswer | null };
type Row = Measured & { name: string; ratios: { toStatic: number | null; toFloor: number | null } };

/**
 * CPU time per answer is steadier than throughput on a shared machine: it does not move with what else runs,
 * so two surfaces compare by it even when their req/s differ by noise. PGlite runs inside the app: no db column.
 */
async function withCpu(pids: Set<number>, run: () => Promise<LoadResult>): Promise<Measured> {
  const app = () => cpuMs((pid) => pids.has(pid));
  const db = driver === "postgres" ? () => cpuMs((_, command) => command === "postgres") : null;
  const [app0, db0] = [app(), db?.()];
  const r = await run();
  const answers = Math.max(1, r.ok);
  const round = (ms: number) => Math.round((ms / answers) * 100) / 100;
  return { ...r, cpu: { appMs: round(app() - app0), dbMs: db ? round(db() - db0!) : null } };
}

/**
 * Requests a client gave up on are still being served: before the next row the server must be idle again
 * (a cheap page answering quickly twice in a row), or that row pays for this one's backlog.
 */
async function drained(url: string): Promise<void> {
  const end = Date.now() + 60_000;
  let quick = 0;
  while (quick < 2 && Date.now() < end) {
    const started = performance.now();
    await fetch(`${url}/api/health`).catch(() => null);
    quick = performance.now() - started < 100 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function measure(name: string, url: string, next: () => Shot, pids: Set<number>): Promise<Measured[]> {
  await closedLoop(url, next, 4, 2); // warm-up
  const results: Measured[] = [await withCpu(pids, () => closedLoop(url, next, connections, duration))];
  print(name, results[0]!);
  for (const rate of rates) {
    await drained(url);
    const r = await openLoop(url, next, rate, duration);
    print(name, r);
    results.push({ ...r, cpu: null });
    // A rate the server could not hold: higher ones only pile up more backlog (and take minutes to drain).
    if (r.rps < 0.9 * rate || r.failed > 0.01 * r.sent) {
      console.log(`${NAMES[name]}: ${rate}/s not held; higher rates skipped`);
      break;
    }
  }
  await drained(url);
  return results;
}

function print(name: string, r: Measured | LoadResult) {
  const mode = r.mode === "closed" ? `closed c=${connections}` : `open ${r.rate}/s`;
  const cpu =
    "cpu" in r && r.cpu
      ? `  CPU/answer app ${r.cpu.appMs} ms${r.cpu.dbMs === null ? "" : ` db ${r.cpu.dbMs} ms`}${heapUsedMb === null ? "" : `  app heap ${heapUsedMb} MB`}`
      : "";
  console.log(
    `${NAMES[name]!.padEnd(36)} ${mode.padEnd(14)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} p99 ${r.p99} p99.9 ${r.p999} ms  failed ${r.failed}${cpu}`,
  );
}

/** The static page's bytes and headers, for the floor server to replay. */
async function captureStatic(): Promise<string> {
  const res = await fetch(`${base}/terms-of-service`);
  const body = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!["transfer-encoding", "connection", "keep-alive", "date", "content-length", "content-encoding"].includes(k))
      headers[k] = v;
  });
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "static-capture.json");
  fs.writeFileSync(file, JSON.stringify({ headers, bodyBase64: body.toString("base64") }));
  console.log(`static page: ${body.length.toLocaleString("en-US")} bytes`);
  return file;
}

/** The last memory line the server logged (MEMORY_LOG_SECONDS=1): its search-cache counters. */
/** The app server's heap in use at its last memory line (MB), printed beside each row: a row that leaves the heap
 * near its cap makes every later row pay for the collector. */
let heapUsedMb: number | null = null;

function watchServerLog(server: ChildProcess): () => { hits: number; misses: number } | null {
  let last: { hits: number; misses: number } | null = null;
  heapUsedMb = null;
  let buffered = "";
  server.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      const heap = /"heapUsedMb":(\d+)/.exec(line);
      if (heap) heapUsedMb = Number(heap[1]);
      const m = /"searchCache":\{"hits":(\d+),"misses":(\d+)\}/.exec(line);
      if (m) last = { hits: Number(m[1]), misses: Number(m[2]) };
    }
  });
  return () => last;
}

function ratio(a: number, b: number | undefined): number | null {
  return b ? Math.round((a / b) * 100) / 100 : null;
}

/** The crawler's row: the sitemaps from robots.txt, then `--crawl` listing pages twice (the second with If-None-Match). */
async function crawlRow(pids: Set<number>) {
  const { paths, sitemaps } = await sitemapListingPaths(base);
  const want = args.crawl === "all" ? paths.length : Math.min(paths.length, Number(args.crawl));
  const step = paths.length / Math.max(1, want);
  const walk = Array.from({ length: want }, (_, i) => paths[Math.floor(i * step)]!);
  const etags = new Map<string, string>();
  const cpu0 = cpuMs((pid) => pids.has(pid));
  const first = await crawlPass(base, walk, 8, etags, false);
  const cpuMsPerPage = Math.round(((cpuMs((pid) => pids.has(pid)) - cpu0) / Math.max(1, first.pages)) * 100) / 100;
  await drained(base);
  const second = await crawlPass(base, walk, 8, etags, true);
  return { sitemaps, listed: paths.length, walked: walk.length, first, second, cpuMsPerPage };
}

type Crawl = {
  sitemaps: number;
  listed: number;
  walked: number;
  first: CrawlPass;
  second: CrawlPass;
  cpuMsPerPage: number;
};
type RuntimeRun = {
  runtime: string;
  rows: Row[];
  crawl: Crawl | null;
  rssEnd: number;
  rssPeak: number;
  cache: { hits: number | null; lookups: number | null; hitRate: number | null };
  floorRatios: FloorRatio[];
};

/** The node binary's own version, to label a runtime's rows. */
function nodeVersion(node: string): string {
  return execFileSync(node, ["-v"]).toString().trim();
}

/** Next's floor rows, against the bare app beside Agora: each request a path never asked before, as Agora's rows. */
function bareSurfaces(): [string, () => Shot][] {
  let n = 0;
  const all: [string, () => Shot][] = [
    ["bareRoute", () => ({ path: "/api/ok" })],
    ["bareDynamic", () => ({ path: `/dynamic/s-${++n}` })],
    ["bareStored", () => ({ path: `/stored/s-${++n}` })],
  ];
  const only = args.only.split(",").filter(Boolean);
  return only.length ? all.filter(([name]) => only.includes(name)) : all;
}

/**
 * What the targets compare: each of Agora's surfaces over the row of the same kind in the same run (app CPU per
 * answer, closed loop). A page rendered per request over Next's per-request page; the detail page (a first render
 * stored in the route cache) over Next's stored first render; the JSON search over the route floor.
 */
const FLOOR_PAIRS: { name: string; of: string; over: string; target: number | null }[] = [
  { name: "detail page ÷ bare Next stored first render", of: "detail", over: "bareStored", target: 1.5 },
  { name: "search page ÷ bare Next dynamic render", of: "page", over: "bareDynamic", target: 1.3 },
  { name: "JSON search API ÷ /api/health", of: "api", over: "health", target: 2 },
  { name: "Bazaar search ÷ JSON search API", of: "bazaar", over: "api", target: 1.2 },
  { name: "MCP search_servers (2026) ÷ /api/health", of: "mcp2026", over: "health", target: null },
  { name: "not-found page ÷ bare Next dynamic render", of: "notfound", over: "bareDynamic", target: null },
  { name: "/api/health ÷ bare Next route", of: "health", over: "bareRoute", target: null },
];
type FloorRatio = { name: string; ratio: number | null; target: number | null; met: boolean | null };

function floorRatios(rows: Row[]): FloorRatio[] {
  const cpu = (key: string) => rows.find((r) => r.name === NAMES[key] && r.mode === "closed")?.cpu?.appMs;
  return FLOOR_PAIRS.flatMap(({ name, of, over, target }) => {
    const [a, b] = [cpu(of), cpu(over)];
    if (a === undefined || b === undefined) return [];
    const r = ratio(a, b);
    return [{ name, ratio: r, target, met: target === null || r === null ? null : r <= target }];
  });
}

/** Every row on one runtime: Agora's production server and the bare Next app both started with `node`. */
async function runOn(node: string, queries: BenchQuery[], slugs: string[]): Promise<RuntimeRun> {
  const runtime = nodeVersion(node);
  console.log(`\n— runtime ${runtime} (${node}) —`);
  const profileDir = args["cpu-prof"] ? path.resolve(args["cpu-prof"], runtime) : "";
  const server = startProductionServer(
    port,
    benchServerEnv(target, base, { MEMORY_LOG_SECONDS: "1" }),
    ["ignore", "pipe", "inherit"],
    profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [],
    node,
  );
  const bareRows = bareSurfaces();
  const bare = bareRows.length ? startBareNext(barePort, node) : undefined;
  const cacheStats = watchServerLog(server);
  let floor: ChildProcess | undefined;
  const rows: Row[] = [];
  let rssEnd = 0;
  let rssPeak = 0;
  let before: { hits: number; misses: number } | null = null;
  let crawl: Crawl | null = null;
  try {
    await waitFor(`${base}/terms-of-service`);
    floor = spawn(node, ["bench/floor-server.mjs", args["floor-port"], await captureStatic()], { stdio: "ignore" });
    await waitFor(floorBase);
    const results: [string, Measured[]][] = [];
    const appPids = processTree(server.pid!);
    results.push([
      "floor",
      await measure("floor", floorBase, () => ({ path: "/terms-of-service" }), new Set([floor.pid!])),
    ]);
    results.push(["static", await measure("static", base, () => ({ path: "/terms-of-service" }), appPids)]);
    // The same page with a query string: the static fast path (server/static-fast-path.mjs) leaves it to Next, which
    // serves the same prerendered bytes. What Next's own pipeline costs per request, beside the stored answer.
    results.push([
      "nextStatic",
      await measure("nextStatic", base, () => ({ path: "/terms-of-service?via=next" }), appPids),
    ]);
    if (bare) {
      await waitFor(`${bareBase}/api/ok`);
      const barePids = processTree(bare.pid!);
      for (const [name, next] of bareRows) results.push([name, await measure(name, bareBase, next, barePids)]);
      // Its CPU is read per row from its own processes only, but it must not take memory or cores from the rows after.
      bare.kill("SIGTERM");
    }
    await new Promise((r) => setTimeout(r, 1200));
    before = cacheStats();
    for (const [name, next] of surfaces(queries, slugs)) {
      if (
        name === "bazaar" &&
        (await fetch(`${base}/discovery/search?query=probe`).catch(() => null))?.status === 404
      ) {
        console.log(`${NAMES[name]}: not served by this build, skipped`);
        continue;
      }
      results.push([name, await measure(name, base, next, appPids)]);
    }
    if (args.crawl !== "0") crawl = await crawlRow(appPids);
    await new Promise((r) => setTimeout(r, 1500));
    rssEnd = memoryMb(server.pid!, "VmRSS");
    rssPeak = memoryMb(server.pid!, "VmHWM");
    const [staticRows, floorRows] = [
      results.find(([n]) => n === "static")![1],
      results.find(([n]) => n === "floor")![1],
    ];
    for (const [name, list] of results) {
      for (const r of list) {
        // Closed loop: throughput over the reference's; open loop: p99 over the reference's at the same rate.
        const ref = (refs: LoadResult[]) => refs.find((x) => x.mode === r.mode && x.rate === r.rate);
        const ratios =
          r.mode === "closed"
            ? { toStatic: ratio(r.rps, ref(staticRows)?.rps), toFloor: ratio(r.rps, ref(floorRows)?.rps) }
            : { toStatic: ratio(r.p99, ref(staticRows)?.p99), toFloor: ratio(r.p99, ref(floorRows)?.p99) };
        rows.push({ name: NAMES[name]!, ...r, ratios });
      }
    }
  } finally {
    server.kill("SIGTERM");
    bare?.kill("SIGTERM");
    floor?.kill("SIGTERM");
  }
  // The profile is written as the server exits; the next runtime needs the port.
  if (server.exitCode === null && server.signalCode === null) await new Promise((r) => server.once("exit", r));
  const after = cacheStats();
  const hits = after && before ? after.hits - before.hits : null;
  const lookups = after && before ? hits! + after.misses - before.misses : null;
  const hitRate = lookups ? Math.round((hits! / lookups) * 1000) / 10 : null;
  return { runtime, rows, crawl, rssEnd, rssPeak, cache: { hits, lookups, hitRate }, floorRatios: floorRatios(rows) };
}

function printRun(run: RuntimeRun) {
  const { rows, crawl, cache } = run;
  console.log(`\n### ${run.runtime}\n`);
  console.log(
    `search cache: ${cache.hitRate === null ? "n/a (this build does not report it)" : `${cache.hits} hits of ${cache.lookups} lookups (${cache.hitRate} %)`}; server RSS ${run.rssEnd} MB at the end, peak ${run.rssPeak} MB\n`,
  );
  console.log(
    "| route | mode | achieved req/s | p50 ms | p99 ms | p99.9 ms | failed | ÷ static | ÷ floor | app CPU ms/answer | db CPU ms/answer |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const r of rows) {
    const mode = r.mode === "closed" ? `closed c=${connections}` : `open ${r.rate}/s`;
    const fmt = (x: number | null) => (x === null ? "—" : r.mode === "closed" ? x.toFixed(2) : `p99 ×${x.toFixed(2)}`);
    const cpu = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(2));
    console.log(
      `| ${r.name} | ${mode} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.p999} | ${r.failed} | ${fmt(r.ratios.toStatic)} | ${fmt(r.ratios.toFloor)} | ${cpu(r.cpu?.appMs)} | ${cpu(r.cpu?.dbMs)} |`,
    );
  }
  if (run.floorRatios.length) {
    console.log("\n| app CPU per answer, ratio | this run | target | met |\n|---|---:|---:|---|");
    for (const f of run.floorRatios)
      console.log(
        `| ${f.name} | ${f.ratio ?? "—"} | ${f.target === null ? "—" : `≤ ${f.target}`} | ${f.met === null ? "—" : f.met ? "met" : "**missed**"} |`,
      );
  }
  if (crawl) {
    console.log(
      `\ncrawler: sitemap.xml → ${crawl.sitemaps} sitemap files, ${crawl.listed.toLocaleString("en-US")} listing pages listed, ${crawl.walked.toLocaleString("en-US")} walked, 8 at a time`,
    );
    console.log(
      "\n| crawler pass | pages | pages/s | p50 ms | p99 ms | answered 304 | failed | app CPU ms/page |\n|---|---:|---:|---:|---:|---:|---:|---:|",
    );
    const share = (p: CrawlPass) => `${Math.round((p.notModified / Math.max(1, p.pages)) * 1000) / 10} %`;
    console.log(
      `| first (no validator) | ${crawl.first.pages} | ${crawl.first.pagesPerSecond} | ${crawl.first.p50} | ${crawl.first.p99} | ${share(crawl.first)} | ${crawl.first.failed} | ${crawl.cpuMsPerPage} |`,
    );
    console.log(
      `| second (If-None-Match) | ${crawl.second.pages} | ${crawl.second.pagesPerSecond} | ${crawl.second.p50} | ${crawl.second.p99} | ${share(crawl.second)} | ${crawl.second.failed} | — |`,
    );
  }
}

/** Two or more runtimes in one run: app CPU per answer of each closed-loop row side by side, over the first runtime. */
function printRuntimeComparison(runs: RuntimeRun[]) {
  if (runs.length < 2) return;
  const head = runs.map((r) => r.runtime);
  console.log(
    `\n| row (app CPU ms per answer, closed loop) | ${head.join(" | ")} | ${head
      .slice(1)
      .map((h) => `${h} ÷ ${head[0]}`)
      .join(" | ")} |\n|---|${"---:|".repeat(head.length * 2 - 1)}`,
  );
  for (const row of runs[0]!.rows.filter((r) => r.mode === "closed")) {
    const cpu = runs.map((run) => run.rows.find((r) => r.name === row.name && r.mode === "closed")?.cpu?.appMs);
    const cells = cpu.map((c) => (c === undefined ? "—" : c.toFixed(2)));
    const ratios = cpu.slice(1).map((c) => (c === undefined || !cpu[0] ? "—" : (c / cpu[0]).toFixed(2)));
    console.log(`| ${row.name} | ${cells.join(" | ")} | ${ratios.join(" | ")} |`);
  }
}

async function main() {
  const startedAt = new Date();
  const loadNow = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ");
  const loadAtStart = loadNow();
  let seedSeconds: number | null = null;
  if (!args["skip-seed"]) seedSeconds = await seedBenchDatabase(target, count);

  const conn = await openBenchDatabase(target);
  const queries = await buildQuerySet(conn.db, Number(args.queries));
  const slugs = rowsOf<{ slug: string }>(
    await conn.db.execute(sql`select slug from listings tablesample system (5) where status = 'approved' limit 5000`),
  ).map((r) => r.slug);
  console.log(`${queries.length} distinct queries (${kindCounts(queries)}); ${slugs.length} detail pages`);
  const dbTimes = await timeKinds(conn.db, queries);
  await conn.close();
  for (const t of dbTimes)
    console.log(`database, uncached: ${t.kind.padEnd(14)} p50 ${t.p50} p99 ${t.p99} max ${t.max} ms (${t.n} queries)`);
  if (bareSurfaces().length) buildBareNext();

  const runs: RuntimeRun[] = [];
  for (const node of runtimes) {
    // Each runtime renders the detail pages afresh: its own server, its own empty route cache.
    runs.push(await runOn(node, queries, slugs));
  }
  const loadAtEnd = loadNow();

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  console.log(
    `\n## ${args.label || "search, distinct queries"} · ${driver} · ${count.toLocaleString("en-US")} listings · ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  );
  console.log(
    `${machine} · ${runs.map((r) => r.runtime).join(", ")} · load ${loadAtStart} at start, ${loadAtEnd} at the end · ${duration} s a row · closed loop c=${connections}`,
  );
  if (seedSeconds !== null) console.log(`seeded in ${seedSeconds.toFixed(1)} s`);
  console.log(`${queries.length} distinct queries\n`);
  console.log(
    "| query kind (database, uncached, sequential) | queries | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|",
  );
  for (const t of dbTimes) console.log(`| ${t.kind} | ${t.n} | ${t.p50} | ${t.p99} | ${t.max} |`);
  for (const run of runs) printRun(run);
  printRuntimeComparison(runs);
  const report = {
    startedAt: startedAt.toISOString(),
    driver,
    listings: count,
    machine,
    load: { start: loadAtStart, end: loadAtEnd },
    seedSeconds,
    durationSeconds: duration,
    connections,
    queries: { distinct: queries.length, kinds: kindCounts(queries) },
    database: dbTimes,
    runs: runs.map((run) => ({
      runtime: run.runtime,
      searchCache: { hits: run.cache.hits, lookups: run.cache.lookups, hitRatePercent: run.cache.hitRate },
      rss: { endMb: run.rssEnd, peakMb: run.rssPeak },
      crawl: run.crawl,
      floorRatios: run.floorRatios,
      rows: run.rows.map((r) => ({
        name: r.name,
        mode: r.mode,
        rate: r.rate,
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        p999: r.p999,
        failed: r.failed,
        ratios: r.ratios,
        cpuPerAnswer: r.cpu,
      })),
    })),
  };
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten: bench/.out/latest.json`);
}

await main();
process.exit(0);
