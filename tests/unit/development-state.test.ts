// What development keeps on disk so that it needs no setting: one auth secret shared by every copy of the auth
// module (lib/auth/development-secret.ts), and one process per embedded database directory (db/pglite-lock.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { developmentSecret } from "@/lib/auth/development-secret";
import { lockPgliteDir } from "@/db/pglite-lock";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-dev-state-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the development auth secret", () => {
  it("is created once, mode 0600, and every later reader gets the same one", () => {
    const file = path.join(tmp, "data", "development-auth-secret");
    const first = developmentSecret(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(developmentSecret(file)).toBe(first);
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(["development-auth-secret"]);
  });
});

describe("one process per embedded database directory", () => {
  it("refuses a directory a live process holds, naming PGLITE_DIR, and takes over one whose holder is gone", async () => {
    const dir = path.join(tmp, "pglite");
    fs.mkdirSync(dir);
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await new Promise((r) => holder.once("spawn", r));
    const stat = fs.readFileSync(`/proc/${holder.pid}/stat`, "utf8");
    const started = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    try {
      fs.writeFileSync(
        path.join(dir, "agora.lock"),
        JSON.stringify({ pid: holder.pid, command: "next-server", started }),
      );
      expect(() => lockPgliteDir(dir)).toThrow(
        `PGLITE_DIR ${dir} is in use by process ${holder.pid} (next-server): the embedded database takes one process at a time.`,
      );
      // The same number with another start time is another process (a reused pid): the lock is stale.
      fs.writeFileSync(
        path.join(dir, "agora.lock"),
        JSON.stringify({ pid: holder.pid, command: "next-server", started: "1" }),
      );
      const release = lockPgliteDir(dir);
      expect(JSON.parse(fs.readFileSync(path.join(dir, "agora.lock"), "utf8"))).toMatchObject({ pid: process.pid });
      release();
      expect(fs.existsSync(path.join(dir, "agora.lock"))).toBe(false);
    } finally {
      holder.kill();
    }
    // Its holder gone, the lock is taken over.
    await new Promise((r) => holder.once("exit", r));
    fs.writeFileSync(
      path.join(dir, "agora.lock"),
      JSON.stringify({ pid: holder.pid, command: "next-server", started }),
    );
    lockPgliteDir(dir)();
  });
});
