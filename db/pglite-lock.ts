// One process per embedded data directory. PGlite opens a directory that another process already has open
// without a word, and two copies of PostgreSQL writing the same files corrupt it: the second `npm run dev`, or
// `npm run ingest` beside a running site, is refused here with what to do instead.
import fs from "node:fs";
import path from "node:path";

const LOCK_FILE = "agora.lock";

type Holder = { pid: number; command: string; started: string | null };

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Holder>;
    return typeof parsed.pid === "number"
      ? { pid: parsed.pid, command: String(parsed.command ?? ""), started: parsed.started ?? null }
      : null;
  } catch {
    return null;
  }
}

/** When process `pid` started (Linux: clock ticks since boot, /proc/<pid>/stat field 22); null without /proc. */
function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the holder is a live process other than this one (a stale lock from a crash is taken over). */
function aliveElsewhere(holder: Holder): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // After a restart the old number may belong to another process (containers reuse small pids): the same pid
  // is the holder only if it started when the holder did.
  const started = startTime(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

function describe(): string {
  return process.argv
    .slice(1)
    .map((a) => path.basename(a))
    .join(" ")
    .slice(0, 120);
}

/** Takes the directory for this process, or throws one line naming PGLITE_DIR; returns the release. */
export function lockPgliteDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, command: describe(), started: startTime(process.pid) });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: "wx", mode: 0o600 });
      return () => {
        if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && aliveElsewhere(holder)) {
      throw new Error(
        `PGLITE_DIR ${dir} is in use by process ${holder.pid} (${holder.command || "another Agora process"}): the embedded database takes one process at a time. Stop that process first, or set PGLITE_DIR to another directory (or DATABASE_URL to a PostgreSQL server).`,
      );
    }
    // Ours already (a second open in this process) or stale: take it over.
    if (holder?.pid === process.pid) return () => {};
    fs.rmSync(file, { force: true });
  }
  throw new Error(`PGLITE_DIR ${dir}: could not take ${LOCK_FILE}; remove it if no Agora process is running`);
}
