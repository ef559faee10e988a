// npm run bench:soak [-- --seconds 600 --connections 32 --restart-db --port 3310 --pg-port 5499 --count 2000 --server-log F]
// A soak of the production build on PostgreSQL: mixed traffic (browse, search, detail, JSON API, registry
// API, MCP, sign-in, submissions) from 32 connections for --seconds, counting every answer by status,
// sampling the server's RSS, and afterwards checking that every acknowledged (201) submission exists.
// With --restart-db, PostgreSQL is restarted halfway through: requests during the outage must get a 503
// (not a 500, not a hang), the app must recover on its own, and no acknowledged write may be lost.
//
// The database is a private PostgreSQL cluster (initdb in a temporary directory, its own port), never the
// shared server on 5432: restarting that one would break other people's work. Needs `next build` first.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { memoryMb, startProductionServer, waitFor } from "./app-server";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openPostgres } from "@/db/connect";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "600" },
    connections: { type: "string", default: "32" },
    port: { type: "string", default: "3310" },
    "pg-port": { type: "string", default: "5499" },
    "pg-bin": { type: "string", default: "/usr/lib/postgresql/15/bin" },
    count: { type: "string", default: "2000" },
    "restart-db": { type: "boolean", default: false },
    "request-timeout": { type: "string", default: "10" },
    // Keeps the server's whole stderr (the report below shows only the kinds of error lines).
    "server-log": { type: "string" },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const port = Number(args.port);
const pgPort = Number(args["pg-port"]);
const pgBin = args["pg-bin"]!;
const requestTimeoutMs = Number(args["request-timeout"]) * 1000;
const base = `http://localhost:${port}`;
const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/agora_soak`;

// ---------- the private PostgreSQL cluster ----------

const clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-soak-pg-"));
const asPostgres = (cmd: string, cmdArgs: string[]) => {
  // initdb and postgres refuse to run as root; the cluster belongs to the postgres user.
  const root = process.getuid?.() === 0;
  return root
    ? execFileSync("runuser", ["-u", "postgres", "--", cmd, ...cmdArgs], { stdio: "pipe" })
    : execFileSync(cmd, cmdArgs, { stdio: "pipe" });
};
const pgCtlArgs = (rest: string[]) => [
  "-D",
  path.join(clusterDir, "data"),
  "-l",
  path.join(clusterDir, "log"),
  "-w",
  "-t",
  "60",
  ...rest,
];
const pgCtl = (...rest: string[]) => asPostgres(path.join(pgBin, "pg_ctl"), pgCtlArgs(rest));
/**
 * The same, without blocking this process's event loop (the load keeps running during a restart). Waits for
 * pg_ctl to exit, not for its output to close: the restarted server may hold inherited descriptors open.
 */
const pgCtlAsync = (...rest: string[]) => {
  const cmd = path.join(pgBin, "pg_ctl");
  const [file, argv] =
    process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", cmd, ...pgCtlArgs(rest)]] : [cmd, pgCtlArgs(rest)];
  return new Promise<void>((resolve, reject) => {
    const child = spawn(file as string, argv as string[], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl exited with ${code}`))));
  });
};

function startCluster(): void {
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", clusterDir]);
  asPostgres(path.join(pgBin, "initdb"), [
    "-D",
    path.join(clusterDir, "data"),
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  pgCtl("-o", `-p ${pgPort} -k ${clusterDir} -c listen_addresses=127.0.0.1 -c max_connections=100`, "start");
}

function stopCluster(): void {
  try {
    pgCtl("-m", "immediate", "stop");
  } catch {}
  fs.rmSync(clusterDir, { recursive: true, force: true });
}

async function seed(): Promise<string[]> {
  const admin = postgres(`postgres://postgres@127.0.0.1:${pgPort}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe("create database agora_soak");
  await admin.end();
  const conn = await openPostgres(databaseUrl, { max: 4 });
  await seedSampleCatalogue(conn.db);
  await seedSynthetic(conn.db, Number(args.count));
  await conn.close();
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const slugs = (await sql`select slug from listings where status = 'approved' order by random() limit 200`).map(
    (r) => r.slug as string,
  );
  await sql.end();
  return slugs;
}

// ---------- the app ----------

function startServer(): ChildProcess {
  const env = {
    ...process.env,
    NODE_ENV: "production" as const,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    SITE_URL: base,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: "soak-only-secret-0123456789abcdef0123",
    AUTH_TRUST_HOST: "true",
    // All load comes from one address: the per-address limits would turn it into 429s.
    E2E: "1",
    RATE_LIMIT_DISABLED: "1",
    UNSAFE_TEST_MODE: "1",
    CHECK_SCHEDULE_DISABLED: "1",
    // Submissions name loopback servers (nothing listens: the probe after each fails fast, on loopback only).
    ALLOW_PRIVATE_SERVER_URLS: "true",
    PROBE_ALLOW_PRIVATE_HOSTS: "true",
  };
  return startProductionServer(port, env, ["ignore", "ignore", "pipe"]);
}

// ---------- traffic ----------

type Kind = "browse" | "search" | "detail" | "api" | "registry" | "mcp" | "signin" | "submit";
const WEIGHTS: [Kind, number][] = [
  ["browse", 18],
  ["search", 14],
  ["detail", 20],
  ["api", 14],
  ["registry", 8],
  ["mcp", 14],
  ["signin", 6],
  ["submit", 6],
];
const WORDS = ["weather", "quantum", "ledger", "search", "image", "data", "energy", "translate", "crypto", "news"];
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

type Account = { email: string; password: string; token: string };
type Sample = { kind: Kind; at: number; status: number; ms: number; dbBacked: boolean };

const samples: Sample[] = [];
const acknowledged: { id: string; url: string }[] = [];
let submissionSeq = 0;

function chooseKind(): Kind {
  const total = WEIGHTS.reduce((s, [, w]) => s + w, 0);
  let r = Math.random() * total;
  for (const [kind, w] of WEIGHTS) if ((r -= w) < 0) return kind;
  return "browse";
}

async function request(
  kind: Kind,
  slugs: string[],
  accounts: Account[],
): Promise<{ status: number; dbBacked: boolean; body?: unknown }> {
  const signal = AbortSignal.timeout(requestTimeoutMs);
  const json = { "content-type": "application/json" };
  switch (kind) {
    case "browse": {
      const res = await fetch(
        `${base}/marketplace${Math.random() < 0.5 ? "" : `?page=${1 + Math.floor(Math.random() * 5)}`}`,
        { signal },
      );
      await res.arrayBuffer();
      return { status: res.status, dbBacked: false };
    }
    case "search": {
      const res = await fetch(`${base}/marketplace?q=${pick(WORDS)}`, { signal, headers: { accept: "text/html" } });
      await res.arrayBuffer();
      return { status: res.status, dbBacked: true };
    }
    case "detail": {
      const res = await fetch(`${base}/marketplace/${pick(slugs)}`, { signal });
      await res.arrayBuffer();
      return { status: res.status, dbBacked: false };
    }
    case "api": {
      const res = await fetch(`${base}/api/mcp-agents?q=${pick(WORDS)}&limit=24`, { signal });
      await res.arrayBuffer();
      return { status: res.status, dbBacked: true };
    }
    case "registry": {
      const res = await fetch(`${base}/v0.1/servers?limit=30&search=${pick(WORDS)}`, { signal });
      await res.arrayBuffer();
      return { status: res.status, dbBacked: true };
    }
    case "mcp": {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_servers", arguments: { query: pick(WORDS), limit: 10 } },
      });
      const res = await fetch(`${base}/api/mcp`, {
        method: "POST",
        signal,
        headers: { ...json, accept: "application/json, text/event-stream" },
        body,
      });
      const answer = (await res.json().catch(() => null)) as { result?: { isError?: boolean } } | null;
      // A tool error (e.g. the database restarting) inside a 200 is not a success for this count.
      return { status: res.status === 200 && answer?.result?.isError ? 299 : res.status, dbBacked: true };
    }
    case "signin": {
      const account = pick(accounts);
      const wrong = Math.random() < 0.3;
      const res = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        signal,
        headers: json,
        body: JSON.stringify({ email: account.email, password: wrong ? "not-the-password-1" : account.password }),
      });
      await res.arrayBuffer();
      return { status: res.status, dbBacked: true };
    }
    case "submit": {
      const account = pick(accounts);
      const n = ++submissionSeq;
      const url = `http://127.0.0.1:9/mcp?soak=${process.pid}-${n}`;
      const res = await fetch(`${base}/api/mcp-agents`, {
        method: "POST",
        signal,
        headers: { ...json, authorization: `Bearer ${account.token}` },
        body: JSON.stringify({
          name: `Soak Server ${n}`,
          description: "A submission made by the soak benchmark.",
          mcpServerUrl: url,
          categories: "Dev Tools",
        }),
      });
      const body = (await res.json().catch(() => null)) as { id?: string } | null;
      if (res.status === 201 && body?.id) acknowledged.push({ id: body.id, url });
      return { status: res.status, dbBacked: true };
    }
  }
}

async function registerAccounts(n: number): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < n; i++) {
    const email = `soak-${process.pid}-${i}@example.com`;
    const password = `Soak-password-${i}-long-enough`;
    const res = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, name: `Soak ${i}` }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    accounts.push({ email, password, token: ((await res.json()) as { token: string }).token });
  }
  return accounts;
}

// ---------- run ----------

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;

async function main() {
  const started = new Date();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  console.log(
    `soak: ${seconds} s, ${connections} connections, ${args["restart-db"] ? "with a PostgreSQL restart halfway" : "no fault"}; load average ${load}`,
  );
  startCluster();
  let server: ChildProcess | undefined;
  const stderr: string[] = [];
  try {
    const slugs = await seed();
    // Cached pages from an earlier run describe another catalogue.
    for (const dir of [".next/server/route-cache", ".next/cache/fetch-cache"])
      fs.rmSync(dir, { recursive: true, force: true });
    server = startServer();
    server.stderr!.on("data", (d: Buffer) => stderr.push(d.toString()));
    await waitFor(`${base}/terms-of-service`);
    const accounts = await registerAccounts(8);
    // Warm the caches a little, as a deployed site would be.
    for (const slug of slugs.slice(0, 20)) await (await fetch(`${base}/marketplace/${slug}`)).arrayBuffer();
    await (await fetch(`${base}/marketplace`)).arrayBuffer();
    const rssStart = memoryMb(server.pid!, "VmRSS");
    let rssPeak = rssStart;

    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    let outage: { stopAt: number; upAt: number } | null = null;
    let restartError: string | null = null;
    // Every 5 s for the peak; one sample a minute is printed, so a plateau can be told from a leak.
    const perMinute: number[] = [];
    const sampler = setInterval(() => {
      const mb = memoryMb(server!.pid!, "VmRSS");
      rssPeak = Math.max(rssPeak, mb);
      const minute = Math.floor((performance.now() - t0) / 60_000);
      if (minute > perMinute.length) perMinute.push(mb);
    }, 5000);
    const fault = args["restart-db"]
      ? new Promise<void>((resolve) => {
          setTimeout(
            async () => {
              const stopAt = performance.now() - t0;
              try {
                // `restart` stops (fast: active sessions are ended), then starts and waits until it accepts connections.
                await pgCtlAsync(
                  "-m",
                  "fast",
                  "restart",
                  "-o",
                  `-p ${pgPort} -k ${clusterDir} -c listen_addresses=127.0.0.1`,
                );
              } catch (error) {
                restartError = String(error);
              }
              outage = { stopAt, upAt: performance.now() - t0 };
              resolve();
            },
            (seconds * 1000) / 2,
          );
        })
      : Promise.resolve();

    const worker = async () => {
      while (performance.now() < end) {
        const kind = chooseKind();
        const at = performance.now() - t0;
        let status: number;
        let dbBacked = false;
        try {
          ({ status, dbBacked } = await request(kind, slugs, accounts));
        } catch (error) {
          status = (error as Error).name === "TimeoutError" ? -1 : 0; // -1 hang (timeout), 0 connection error
        }
        samples.push({ kind, at, status, ms: performance.now() - t0 - at, dbBacked });
      }
    };
    await Promise.all([...Array.from({ length: connections }, worker), fault]);
    clearInterval(sampler);
    // Let the probes scheduled after the last submissions finish, then measure memory once more.
    await new Promise((r) => setTimeout(r, 3000));
    const rssEnd = memoryMb(server.pid!, "VmRSS");

    // Every acknowledged submission must be in the database.
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const present = new Set(
      acknowledged.length
        ? (await sql`select id from listings where id in ${sql(acknowledged.map((a) => a.id))}`).map(
            (r) => r.id as string,
          )
        : [],
    );
    await sql.end();
    const missing = acknowledged.filter((a) => !present.has(a.id));

    // ---------- report ----------
    const wall = (performance.now() - t0) / 1000;
    const by = (f: (s: Sample) => boolean) => samples.filter(f);
    const classOf = (s: number) =>
      s === -1 ? "hang" : s === 0 ? "conn-error" : s === 299 ? "tool-error" : `${Math.floor(s / 100)}xx`;
    const count = (list: Sample[]) => {
      const out: Record<string, number> = {};
      for (const s of list) out[classOf(s.status)] = (out[classOf(s.status)] ?? 0) + 1;
      return out;
    };
    console.log(`\n${samples.length} requests in ${wall.toFixed(0)} s (${(samples.length / wall).toFixed(1)} req/s)`);
    console.log(`statuses: ${JSON.stringify(count(samples))}`);
    console.log("\n| kind | requests | p50 ms | p99 ms | statuses |\n|---|---:|---:|---:|---|");
    for (const [kind] of WEIGHTS) {
      const list = by((s) => s.kind === kind);
      const ms = list.map((s) => s.ms).sort((a, b) => a - b);
      console.log(
        `| ${kind} | ${list.length} | ${Math.round(pct(ms, 50))} | ${Math.round(pct(ms, 99))} | ${JSON.stringify(count(list))} |`,
      );
    }
    const fiveHundreds = by((s) => s.status >= 500 && s.status !== 503);
    const unavailable = by((s) => s.status === 503);
    console.log(
      `\n5xx other than 503: ${fiveHundreds.length}; 503: ${unavailable.length}; hangs (> ${requestTimeoutMs / 1000} s): ${by((s) => s.status === -1).length}; connection errors: ${by((s) => s.status === 0).length}`,
    );
    console.log(
      `server RSS: ${rssStart} MB at start, ${rssEnd} MB at end, peak ${rssPeak} MB; at each minute: ${perMinute.join(", ")} MB`,
    );
    console.log(`submissions acknowledged (201): ${acknowledged.length}; missing afterwards: ${missing.length}`);
    if (args["restart-db"]) {
      const o = outage as { stopAt: number; upAt: number } | null;
      if (restartError) console.log(`restart failed: ${restartError}`);
      if (o) {
        const during = by((s) => s.at + s.ms >= o.stopAt && s.at <= o.upAt);
        const duringDb = during.filter((s) => s.dbBacked);
        const firstOk = samples
          .filter((s) => s.dbBacked && s.at >= o.upAt && s.status >= 200 && s.status < 300)
          .reduce((m, s) => Math.min(m, s.at + s.ms), Infinity);
        const afterFailures = by(
          (s) => s.dbBacked && s.at >= o.upAt + 5000 && (s.status >= 500 || s.status <= 0 || s.status === 299),
        );
        console.log(
          `\nPostgreSQL restart: stopped at ${(o.stopAt / 1000).toFixed(1)} s, accepting connections again ${((o.upAt - o.stopAt) / 1000).toFixed(2)} s later`,
        );
        console.log(
          `requests overlapping the outage: ${during.length} (${duringDb.length} needing the database): ${JSON.stringify(count(during))}`,
        );
        const slowest = during.map((s) => s.ms).sort((a, b) => b - a)[0] ?? 0;
        console.log(`slowest answer during the outage: ${Math.round(slowest)} ms`);
        console.log(
          `first database-backed 2xx after the database was back: ${Number.isFinite(firstOk) ? `${((firstOk - o.upAt) / 1000).toFixed(2)} s after` : "never"}`,
        );
        console.log(`database-backed failures from 5 s after it was back to the end: ${afterFailures.length}`);
        // What database-backed requests got, 5 s at a time from just before the restart: recovery as a timeline.
        const buckets = new Map<number, Sample[]>();
        for (const sample of samples.filter((x) => x.dbBacked && x.at >= o.stopAt - 5000)) {
          const b = Math.floor((sample.at - o.stopAt) / 5000);
          const list = buckets.get(b);
          if (list) list.push(sample);
          else buckets.set(b, [sample]);
        }
        console.log("database-backed requests by start time, relative to the restart:");
        for (const [b, list] of [...buckets].sort((x, y) => x[0] - y[0]))
          console.log(
            `  ${String(b * 5).padStart(4)}…${String(b * 5 + 5).padStart(4)} s: ${JSON.stringify(count(list))}`,
          );
      }
    }
    if (args["server-log"]) fs.writeFileSync(args["server-log"], stderr.join(""));
    const errorLines = stderr
      .join("")
      .split("\n")
      .filter((l) => l.includes('"level":"error"'));
    console.log(
      `server error log lines: ${errorLines.length}${errorLines.length ? `; first: ${errorLines[0]!.slice(0, 300)}` : ""}`,
    );
    const kinds = new Map<string, number>();
    for (const line of errorLines) {
      const key = line
        .replace(/"time":"[^"]*",?/, "")
        .replace(/\d+/g, "N")
        .slice(0, 220);
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    for (const [key, n] of kinds) console.log(`  ${n} × ${key}`);
    console.log(
      `\nstarted ${started.toISOString()}, machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}`,
    );
    if (fiveHundreds.length || missing.length || (!args["restart-db"] && unavailable.length)) process.exitCode = 1;
  } finally {
    server?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    stopCluster();
  }
}

main().catch((error) => {
  console.error(error);
  stopCluster();
  process.exit(1);
});
