// npm run bench:urls [-- --count 20000 --warmup 2000 --clients 16 --port 3730]
// Memory under any number of distinct URLs: the production server (`npm start`'s preloads and
// heap cap) on PostgreSQL with the sample catalogue, then --count URLs no one asked before, spread over every
// surface (search pages with their filters, unknown detail pages, catalogue pages past the end, the JSON API, the
// registry APIs, MCP search_servers, the Bazaar's search), from --clients clients (each its own loopback address,
// one request at a time). RSS is read after start-up, after --warmup distinct URLs (the heap and Next's caches at
// their working size) and at the end; the check is the end within 10 % of the warm-up reading. Needs `next build`.
// BENCH_URLS_DATABASE_URL picks the database (default agora_urls on the local server; it is recreated).
import http from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import { memoryMb, startProductionServer, waitFor } from "./app-server";
import { openPostgres } from "@/db/connect";
import { recreatePostgresDatabase } from "./seed";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "20000" },
    warmup: { type: "string", default: "2000" },
    clients: { type: "string", default: "16" },
    port: { type: "string", default: "3730" },
  },
});
const port = Number(args.port);
const databaseUrl = process.env.BENCH_URLS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agora_urls";

const MCP_BODY = (q: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_servers", arguments: { query: q } },
  });
const SURFACES: ((n: number) => { path: string; method?: string; body?: string })[] = [
  (n) => ({ path: `/marketplace?q=u${n}` }),
  (n) => ({ path: `/marketplace?q=u${n}&category=Data&sort=name` }),
  (n) => ({ path: `/marketplace?price=free&q=w${n}` }),
  (n) => ({ path: `/marketplace/unknown-${n}` }),
  (n) => ({ path: `/catalogue-page/${100_000 + n}` }),
  (n) => ({ path: `/api/mcp-agents?q=u${n}&limit=24` }),
  (n) => ({ path: `/api/mcp-agents/unknown-${n}` }),
  (n) => ({ path: `/v0.1/servers?search=u${n}&limit=30` }),
  (n) => ({ path: `/v0/servers?search=u${n}` }),
  (n) => ({ path: "/api/mcp", method: "POST", body: MCP_BODY(`u${n}`) }),
  (n) => ({ path: `/discovery/search?query=u${n}` }),
];

function request(n: number, from: string): Promise<number> {
  const { path, method = "GET", body } = SURFACES[n % SURFACES.length]!(n);
  const headers: Record<string, string> = body
    ? {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": String(Buffer.byteLength(body)),
      }
    : {};
  return new Promise((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port, path, method, headers, localAddress: from, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.setTimeout(30_000, () => req.destroy());
    req.on("error", () => resolve(-1));
    req.end(body);
  });
}

async function run(from: number, to: number, statuses: Record<string, number>): Promise<void> {
  let next = from;
  const clients = Number(args.clients);
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (next < to) {
        const status = await request(next++, `127.0.80.${c + 1}`);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
}

async function seed(): Promise<void> {
  await recreatePostgresDatabase(databaseUrl);
  const conn = await openPostgres(databaseUrl, { max: 2 });
  await seedSampleCatalogue(conn.db);
  await conn.close();
}

async function main() {
  const count = Number(args.count);
  const warmup = Number(args.warmup);
  const started = new Date();
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  await seed();
  const base = `http://localhost:${port}`;
  const server = startProductionServer(
    port,
    {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      SITE_URL: base,
      AUTH_SECRET: "bench-only-secret-0123456789abcdef0123",
      RATE_LIMIT_DISABLED: "1",
      UNSAFE_TEST_MODE: "1",
      CHECK_SCHEDULE_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      MEMORY_LOG_SECONDS: "2",
    },
    ["ignore", "pipe", "inherit"],
  );
  // The server's own reading of its heap (MEMORY_LOG_SECONDS), to tell a growing heap from a heap that only sized up.
  let heapUsed = 0;
  let tail = "";
  server.stdout!.on("data", (chunk: Buffer) => {
    const lines = (tail + chunk.toString()).split("\n");
    tail = lines.pop()!;
    for (const line of lines)
      if (line.includes('"msg":"memory"')) heapUsed = (JSON.parse(line) as { heapUsedMb: number }).heapUsedMb;
  });
  const heapNow = async () => {
    await new Promise((r) => setTimeout(r, 2_500));
    return heapUsed;
  };
  try {
    await waitFor(`${base}/terms-of-service`);
    for (let i = 0; i < SURFACES.length; i++) await request(i, "127.0.80.1");
    const atStart = memoryMb(server.pid!, "VmRSS");
    const statuses: Record<string, number> = {};
    await run(SURFACES.length, SURFACES.length + warmup, statuses);
    const afterWarmup = memoryMb(server.pid!, "VmRSS");
    const heapAfterWarmup = await heapNow();
    const t0 = performance.now();
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(memoryMb(server.pid!, "VmRSS")), 5_000);
    await run(SURFACES.length + warmup, SURFACES.length + warmup + count, statuses);
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2_000));
    const atEnd = memoryMb(server.pid!, "VmRSS");
    const heapAtEnd = await heapNow();
    const change = (atEnd - afterWarmup) / afterWarmup;
    console.log(
      `\n## Distinct URLs · ${started.toISOString().slice(0, 16).replace("T", " ")} UTC · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · Node ${process.version} · load ${loadAtStart} at start, ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")} at end\n`,
    );
    console.log(
      `| URLs | surfaces | clients | seconds | RSS after start-up MB | after ${warmup} warm-up MB | peak during MB | at end MB | end vs warm-up | V8 heap used after warm-up / at end MB | statuses |`,
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    console.log(
      `| ${count} | ${SURFACES.length} | ${args.clients} | ${seconds.toFixed(0)} | ${atStart} | ${afterWarmup} | ${Math.max(afterWarmup, ...samples)} | ${atEnd} | ${(change * 100).toFixed(1)} % | ${heapAfterWarmup} / ${heapAtEnd} | ${JSON.stringify(statuses)} |`,
    );
    console.log(`\nRSS every 5 s (MB): ${samples.join(" ")}`);
    console.log(
      Math.abs(change) <= 0.1
        ? "\nRSS at the end is within 10 % of the warm-up reading."
        : "\nRSS at the end is NOT within 10 % of the warm-up reading.",
    );
    if (Math.abs(change) > 0.1) process.exitCode = 1;
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
