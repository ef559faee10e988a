// Starts the standalone production build as `npm run start:prod` does (migrate, then serve, in .next/standalone),
// on a PostgreSQL database of its own, for the specs that stop servers or run two of them side by side.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { productionStart } from "../../support/production-start";

export type ProductionServer = {
  origin: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  log: () => string;
  /** The exit code once the process has ended (null while it runs). */
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

const start = productionStart();

/** A fresh database on the server DATABASE_URL names, migrated by the start's migrate step with `env`; returns its URL. */
export async function createProductionDatabase(name: string, env: Record<string, string>): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = "/postgres";
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  const migrated = spawnSync(start.migrate[0]!, start.migrate.slice(1), {
    cwd: start.dir,
    env: { ...process.env, ...env, DATABASE_URL: url.toString() },
    encoding: "utf8",
  });
  if (migrated.status !== 0) throw new Error(`migration failed: ${migrated.stderr}${migrated.stdout}`);
  return url.toString();
}

export async function startProductionServer(port: number, env: Record<string, string>): Promise<ProductionServer> {
  // Each server runs from its own copy of the standalone output, as each container has its own disk: Next writes
  // its page cache beside server.js, and the suite's own site (another database) runs from the original.
  const dir = path.join(os.tmpdir(), `agora-standalone-${port}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(start.dir, dir, { recursive: true, verbatimSymlinks: true });
  // Without what the suite's site cached from its own database (prepare-db.ts clears the same for it).
  for (const cache of [".next/server/route-cache", ".next/cache/fetch-cache"])
    fs.rmSync(path.join(dir, cache), { recursive: true, force: true });
  const child = spawn(start.serve[0]!, start.serve.slice(1), {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), HOSTNAME: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => fs.rmSync(dir, { recursive: true, force: true }));
  // A worker that dies (a test timeout) must not leave a server behind holding its port.
  const orphan = () => child.kill("SIGKILL");
  process.once("exit", orphan);
  void exited.then(() => process.off("exit", orphan));
  const origin = `http://127.0.0.1:${port}`;
  const server: ProductionServer = {
    origin,
    process: child,
    log: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(3_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return server;
    await new Promise((r) => setTimeout(r, 250));
  }
  await server.stop();
  throw new Error(`server on ${port} not ready within 45 s:\n${output}`);
}
