// npm run bench:memory [-- --seconds 60 --connections 16 --count 0 --port 3720 --configs postgres,pglite:128,pglite]
// The production server's memory on each database: RSS after start-up (and one request of each kind), then a
// static-page run (the reference for ratios), then --seconds of mixed traffic from --connections connections
// (/, /marketplace, a detail page, the JSON search API, the registry API), sampling RSS every 5 s. For each
// configuration it prints RSS at start and after the mix, the peak, req/s (and the ratio to the static page of the
// same run), and where the memory is: /proc/<pid>/status (RssAnon, RssFile), the resident part of PGlite's
// WebAssembly memory (/proc/<pid>/smaps) and the server's own process.memoryUsage() (MEMORY_LOG_SECONDS).
//
// Configurations: `postgres` (database agora_mem on the local server, BENCH_MEMORY_DATABASE_URL to change),
// `pglite` (the default settings), `pglite:N` (PGLITE_SHARED_BUFFERS_MB=N); a further `:--v8-flag` is passed to
// node (e.g. `pglite:16:--liftoff-only`). --count adds synthetic listings to the sample catalogue (0 = the default
// set-up: the sample catalogue a first run creates). Needs `next build` first.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { memoryMb, startProductionServer, waitFor } from "./app-server";
import { openPglite, openPostgres, type Connection } from "@/db/connect";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";
import { recreatePostgresDatabase } from "./seed";
import { rowsOf } from "@/db/rows";
import { sql as dsql } from "drizzle-orm";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    connections: { type: "string", default: "16" },
    count: { type: "string", default: "0" },
    port: { type: "string", default: "3720" },
    "static-seconds": { type: "string", default: "10" },
    configs: { type: "string", default: "postgres,pglite:128,pglite" },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const count = Number(args.count);
const port = Number(args.port);
const base = `http://localhost:${port}`;
const databaseUrl = process.env.BENCH_MEMORY_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_mem";
const pgliteDir = path.resolve("bench/.tmp/memory-pglite");

// ---------- the catalogues ----------

async function seeded(conn: Connection): Promise<string[]> {
  await seedSampleCatalogue(conn.db);
  if (count > 0) await seedSynthetic(conn.db, count);
  const rows = rowsOf<{ slug: string }>(
    await conn.db.execute(dsql`select slug from listings where status = 'approved' order by slug limit 200`),
  );
  await conn.close();
  return rows.map((r) => r.slug);
}

async function seedPostgres(): Promise<string[]> {
  await recreatePostgresDatabase(databaseUrl);
  return seeded(await openPostgres(databaseUrl, { max: 2 }));
}

async function seedPglite(): Promise<string[]> {
  fs.rmSync(pgliteDir, { recursive: true, force: true });
  return seeded(await openPglite(pgliteDir));
}

// ---------- memory ----------

type Breakdown = { rss: number; anon: number; file: number; wasm: number | null; log: Record<string, number> | null };

function procStatus(pid: number): { anon: number; file: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
  return { anon: Math.round(kb("RssAnon") / 1024), file: Math.round(kb("RssFile") / 1024) };
}

/**
 * The resident part of PGlite's WebAssembly memory: its one anonymous read-write mapping of at least 128 MB (the
 * module's minimum). Nothing else in the server maps that much in one piece (V8's heap grows in small pages).
 */
function wasmResidentMb(pid: number): number | null {
  let best: number | null = null;
  let candidate = false;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 2 ** 20;
      candidate = head[3] === "rw-p" && head[4] === "0" && !head[5] && size >= 128;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && candidate) best = Math.max(best ?? 0, Math.round(Number(rss[1]) / 1024));
  }
  return best;
}

function breakdown(server: ChildProcess, lastLog: Record<string, number> | null): Breakdown {
  const pid = server.pid!;
  return { rss: memoryMb(pid, "VmRSS"), ...procStatus(pid), wasm: wasmResidentMb(pid), log: lastLog };
}

const describe = (b: Breakdown) =>
  `RSS ${b.rss} MB (anon ${b.anon}, file ${b.file}); WebAssembly memory resident ${b.wasm ?? "—"} MB` +
  (b.log
    ? `; V8 heap used ${b.log.heapUsedMb} / total ${b.log.heapTotalMb}, external ${b.log.externalMb} (array buffers ${b.log.arrayBuffersMb})`
    : "");

// ---------- traffic ----------

const WORDS = ["weather", "search", "image", "data", "token", "translate", "crypto", "news", "scraper", "energy"];
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const KINDS = ["home", "marketplace", "detail", "api", "registry"] as const;
type Kind = (typeof KINDS)[number];

function urlFor(kind: Kind, slugs: string[]): string {
  switch (kind) {
    case "home":
      return "/";
    case "marketplace":
      return "/marketplace";
    case "detail":
      return `/marketplace/${pick(slugs)}`;
    case "api":
      return `/api/mcp-agents?q=${pick(WORDS)}&limit=24`;
    case "registry":
      return `/v0.1/servers?limit=30&search=${pick(WORDS)}`;
  }
}

async function mixed(
  slugs: string[],
  onSample: () => void,
): Promise<{ rps: number; statuses: Record<string, number>; perKind: Record<string, number> }> {
  const statuses: Record<string, number> = {};
  const perKind: Record<string, number> = {};
  let done = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const sampler = setInterval(onSample, 5000);
  const worker = async () => {
    while (performance.now() < end) {
      const kind = pick([...KINDS]);
      let status: string;
      try {
        const res = await fetch(base + urlFor(kind, slugs), { signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
        status = String(res.status);
      } catch (error) {
        status = (error as Error).name === "TimeoutError" ? "timeout" : "error";
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      perKind[kind] = (perKind[kind] ?? 0) + 1;
      done++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  clearInterval(sampler);
  return { rps: done / ((performance.now() - t0) / 1000), statuses, perKind };
}

// ---------- one configuration ----------

type Config = { label: string; driver: "postgres" | "pglite"; sharedBuffersMb?: string; nodeFlags: string[] };

function parseConfig(text: string): Config {
  const [driver, mb, ...flags] = text.split(":");
  if (driver !== "postgres" && driver !== "pglite") throw new Error(`unknown configuration ${text}`);
  return { label: text, driver, sharedBuffersMb: mb || undefined, nodeFlags: flags };
}

type Outcome = {
  config: Config;
  start: Breakdown;
  end: Breakdown;
  peak: number;
  staticRps: number;
  mixRps: number;
  statuses: Record<string, number>;
};

async function measure(config: Config, slugs: string[]): Promise<Outcome> {
  // Cached pages from an earlier configuration were rendered from the other database.
  for (const dir of [".next/server/route-cache", ".next/cache/fetch-cache"])
    fs.rmSync(dir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    SITE_URL: base,
    AUTH_SECRET: "bench-only-secret-0123456789abcdef0123",
    AUTH_TRUST_HOST: "true",
    // All load comes from one address: the per-address limits would turn it into 429s.
    RATE_LIMIT_DISABLED: "1",
    UNSAFE_TEST_MODE: "1",
    CHECK_SCHEDULE_DISABLED: "1",
    MEMORY_LOG_SECONDS: "1",
    DATABASE_URL: config.driver === "postgres" ? databaseUrl : "",
    PGLITE_DIR: pgliteDir,
    PGLITE_SHARED_BUFFERS_MB: config.sharedBuffersMb ?? "",
  };
  const server = startProductionServer(port, env, ["ignore", "pipe", "pipe"], config.nodeFlags);
  let lastLog: Record<string, number> | null = null;
  let stdoutTail = "";
  server.stdout!.on("data", (d: Buffer) => {
    stdoutTail += d.toString();
    const lines = stdoutTail.split("\n");
    stdoutTail = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('"msg":"memory"')) continue;
      try {
        lastLog = JSON.parse(line) as Record<string, number>;
      } catch {}
    }
  });
  const stderr: string[] = [];
  server.stderr!.on("data", (d: Buffer) => stderr.push(d.toString()));
  try {
    await waitFor(`${base}/terms-of-service`);
    // One request of each kind, as a server that has just started serving would have seen.
    for (const kind of KINDS) await (await fetch(base + urlFor(kind, slugs))).arrayBuffer();
    await new Promise((r) => setTimeout(r, 2500));
    const start = breakdown(server, lastLog);
    let peak = start.rss;
    const st = await autocannon({
      url: `${base}/terms-of-service`,
      connections,
      duration: Number(args["static-seconds"]),
    });
    const mix = await mixed(slugs, () => (peak = Math.max(peak, memoryMb(server.pid!, "VmRSS"))));
    await new Promise((r) => setTimeout(r, 2500));
    const end = breakdown(server, lastLog);
    peak = Math.max(peak, memoryMb(server.pid!, "VmHWM"));
    return { config, start, end, peak, staticRps: st.requests.average, mixRps: mix.rps, statuses: mix.statuses };
  } catch (error) {
    console.error(stderr.join("").slice(-3000));
    throw error;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1500));
  }
}

// ---------- run ----------

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("run `npm run build` first");
  const configs = args.configs!.split(",").map(parseConfig);
  const started = new Date();
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  const slugs: Partial<Record<"postgres" | "pglite", string[]>> = {};
  if (configs.some((c) => c.driver === "postgres")) slugs.postgres = await seedPostgres();
  if (configs.some((c) => c.driver === "pglite")) slugs.pglite = await seedPglite();
  console.log(
    `catalogue: sample${count ? ` + ${count} synthetic` : ""} listings; ${connections} connections, ${seconds} s of mixed traffic per configuration`,
  );
  const outcomes: Outcome[] = [];
  for (const config of configs) {
    const o = await measure(config, slugs[config.driver]!);
    outcomes.push(o);
    console.log(`\n${config.label}: at start ${describe(o.start)}`);
    console.log(`${config.label}: after ${seconds} s ${describe(o.end)}; peak ${o.peak} MB`);
    console.log(
      `${config.label}: static ${o.staticRps.toFixed(0)} req/s, mix ${o.mixRps.toFixed(1)} req/s (${(o.mixRps / o.staticRps).toFixed(2)} of static); statuses ${JSON.stringify(o.statuses)}`,
    );
  }
  console.log(
    `\n## Memory · ${started.toISOString().slice(0, 16).replace("T", " ")} UTC · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · ${Math.round(os.totalmem() / 2 ** 30)} GiB · Node ${process.version} · load ${loadAtStart} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} at end\n`,
  );
  console.log(
    `| configuration | RSS at start MB | RSS after ${seconds} s MB | peak MB | WASM resident start / end MB | V8 heap used end MB | external end MB | static req/s | mix req/s | mix ÷ static |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const o of outcomes) {
    const wasm = o.start.wasm === null ? "—" : `${o.start.wasm} / ${o.end.wasm}`;
    console.log(
      `| ${o.config.label} | ${o.start.rss} | ${o.end.rss} | ${o.peak} | ${wasm} | ${o.end.log?.heapUsedMb ?? "?"} | ${o.end.log?.externalMb ?? "?"} | ${o.staticRps.toFixed(0)} | ${o.mixRps.toFixed(1)} | ${(o.mixRps / o.staticRps).toFixed(2)} |`,
    );
  }
  const failed = outcomes.filter((o) => Object.keys(o.statuses).some((s) => s !== "200"));
  if (failed.length) console.log(`\nnot every answer was 200 in: ${failed.map((o) => o.config.label).join(", ")}`);
}

await main();
