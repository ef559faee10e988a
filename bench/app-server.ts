// The production build started as `npm start` starts it (client-address, overload and static fast-path preloads, heap cap;
// STATIC_FAST_PATH=0 in the environment measures Next alone), for benchmarks:
// start, wait until it answers, and read its memory from /proc (Linux).
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import fs from "node:fs";

export function startProductionServer(port: number, env: NodeJS.ProcessEnv, stdio: StdioOptions = ["ignore", "ignore", "inherit"], nodeFlags: string[] = []): ChildProcess {
  const heap = `--max-old-space-size=${env.NODE_HEAP_MB ?? "256"}`;
  return spawn(process.execPath, [heap, ...nodeFlags, "--import", "./server/client-address.mjs", "--import", "./server/overload.mjs", "--import", "./server/static-fast-path.mjs", "node_modules/next/dist/bin/next", "start", "-p", String(port)], { env, stdio });
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

/** Memory of the server and its children in MB: `VmRSS` now, or `VmHWM` for the peak so far. */
export function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const pids = [pid, ...execFileSync("sh", ["-c", `pgrep -P ${pid} || true`]).toString().split(/\s+/).filter(Boolean).map(Number)];
  let total = 0;
  for (const p of pids) {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) total += Number(m[1]) / 1024;
    } catch {}
  }
  return Math.round(total);
}
