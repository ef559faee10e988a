// The production build started as `npm start` starts it (client-address, overload and static fast-path preloads, heap cap;
// STATIC_FAST_PATH=0 in the environment measures Next alone), for benchmarks:
// start, wait until it answers, and read its memory from /proc (Linux).
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// The young generation's size, as `npm start` sets it (docs/production.md, Memory).
const SEMI_SPACE = "--max-semi-space-size=16";

export function startProductionServer(
  port: number,
  env: NodeJS.ProcessEnv,
  stdio: StdioOptions = ["ignore", "ignore", "inherit"],
  nodeFlags: string[] = [],
  node: string = process.execPath,
): ChildProcess {
  const heap = `--max-old-space-size=${env.NODE_HEAP_MB ?? "256"}`;
  return spawn(
    node,
    [
      heap,
      SEMI_SPACE,
      ...nodeFlags,
      "--import",
      "./server/client-address.mjs",
      "--import",
      "./server/overload.mjs",
      "--import",
      "./server/static-fast-path.mjs",
      "node_modules/next/dist/bin/next",
      "start",
      "-p",
      String(port),
    ],
    { env, stdio },
  );
}

const BARE_NEXT_DIR = "bench/bare-next";

/**
 * Next's own floor (bench/bare-next): a one-line page under an empty layout, built with the repository's own Next
 * and React. Built again whenever the installed Next differs from the one that built it, so a floor is never an
 * old build's.
 */
export function buildBareNext(): void {
  const stamp = path.join(BARE_NEXT_DIR, ".next", "agora-bench-next-version");
  const version = JSON.parse(fs.readFileSync("node_modules/next/package.json", "utf8")).version as string;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === version) return;
  console.log(`building Next's floor app (${BARE_NEXT_DIR}, next ${version}) …`);
  execFileSync(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "build"], {
    cwd: BARE_NEXT_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  fs.writeFileSync(stamp, version);
}

/** The floor app under `next start`, with the same heap flags and runtime as the app beside it (no preloads: Next alone). */
export function startBareNext(port: number, node: string = process.execPath): ChildProcess {
  return spawn(
    node,
    [
      "--max-old-space-size=256",
      SEMI_SPACE,
      "node_modules/next/dist/bin/next",
      "start",
      BARE_NEXT_DIR,
      "-p",
      String(port),
    ],
    {
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not answer ${url}`);
}

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;

/** CPU time (user + system) in ms used so far by the processes whose pid `select` keeps (Linux /proc). */
export function cpuMs(select: (pid: number, command: string) => boolean): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!select(Number(entry), command)) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {}
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/** The server and its children, by pid. */
export function processTree(pid: number): Set<number> {
  return new Set([
    pid,
    ...execFileSync("sh", ["-c", `pgrep -P ${pid} || true`])
      .toString()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  ]);
}

/** Memory of the server and its children in MB: `VmRSS` now, or `VmHWM` for the peak so far. */
export function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) total += Number(m[1]) / 1024;
    } catch {}
  }
  return Math.round(total);
}
