// The agent client's ledger: the daily cap holds when purchases race (in one process and across processes),
// and a line torn by a crash is skipped without losing the lines after it.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { CapExceeded, Ledger } from "@agora-mcp/client";

const run = promisify(execFile);
const dirs: string[] = [];
function tempLedger(): Ledger {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-ledger-"));
  dirs.push(dir);
  return new Ledger(path.join(dir, "ledger.jsonl"));
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const attempt = { server: "Weather", item: "weather-now", units: "100000" };

describe("client ledger", () => {
  it("lets exactly cap / price purchases through when twenty race in one process", async () => {
    const ledger = tempLedger();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => ledger.reserve(attempt, 1_000_000n)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected.every((r) => r.reason instanceof CapExceeded)).toBe(true);
    expect(ledger.spentToday()).toBe(1_000_000n);
    expect(ledger.lines()).toHaveLength(10);
  });

  it("holds the cap across processes sharing the ledger file", async () => {
    const ledger = tempLedger();
    const script = `
      const { Ledger } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "../dist/ledger.js"))});
      const l = new Ledger(${JSON.stringify(ledger.file)});
      const r = await Promise.allSettled([1,2,3].map(() => l.reserve(${JSON.stringify(attempt)}, 500000n)));
      console.log(r.filter((x) => x.status === "fulfilled").length);`;
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() => run(process.execPath, ["--input-type=module", "-e", script])),
    );
    const granted = outputs.reduce((sum, o) => sum + Number(o.stdout.trim()), 0);
    expect(granted).toBe(5);
    expect(ledger.spentToday()).toBe(500_000n);
    expect(fs.existsSync(`${ledger.file}.lock`)).toBe(false);
  });

  it("frees the reservation of a refused purchase and keeps paid ones counted", async () => {
    const ledger = tempLedger();
    const a = await ledger.reserve(attempt, 200_000n);
    const b = await ledger.reserve(attempt, 200_000n);
    await expect(ledger.reserve(attempt, 200_000n)).rejects.toBeInstanceOf(CapExceeded);
    await ledger.update(a.id, { status: "refused", note: "server said no" });
    await ledger.update(b.id, { status: "paid", transaction: `0x${"ab".repeat(32)}` });
    expect(ledger.spentToday()).toBe(100_000n);
    expect(ledger.attempts().map((x) => x.status)).toEqual(["refused", "paid"]);
    expect(ledger.attempts()[1]!.time).toBe(b.time);
  });

  it("skips a line torn by a crash and keeps every line written after it", async () => {
    const ledger = tempLedger();
    const first = await ledger.reserve(attempt, 1_000_000n);
    await ledger.update(first.id, { status: "paid" });
    fs.appendFileSync(ledger.file, '{"id":"att_torn","time":"2026-'); // the crash
    expect(ledger.attempts()).toHaveLength(1);
    await ledger.reserve(attempt, 1_000_000n);
    const lines = fs.readFileSync(ledger.file, "utf8").split("\n");
    expect(lines.filter((l) => l.startsWith('{"id":"att_torn"'))).toEqual(['{"id":"att_torn","time":"2026-']);
    expect(ledger.attempts()).toHaveLength(2);
    expect(ledger.spentToday()).toBe(200_000n);
  });

  it("counts only today's spending against the cap", async () => {
    const ledger = tempLedger();
    await ledger.reserve(attempt, 1_000_000n, new Date("2026-01-01T23:59:00Z"));
    expect(ledger.spentToday(new Date("2026-01-01T23:59:30Z"))).toBe(100_000n);
    expect(ledger.spentToday(new Date("2026-01-02T00:00:01Z"))).toBe(0n);
  });

  it("takes over a lock left by a crashed holder", async () => {
    const ledger = tempLedger();
    fs.mkdirSync(path.dirname(ledger.file), { recursive: true });
    fs.writeFileSync(`${ledger.file}.lock`, "99999");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${ledger.file}.lock`, old, old);
    await ledger.reserve(attempt, 1_000_000n);
    expect(ledger.attempts()).toHaveLength(1);
  });
});
