// The purchase ledger: one JSON line per event, appended under a lock file, fsynced. An attempt is a series
// of lines with the same id (reserved → paid / failed / …); the last line wins. Reserving checks the daily
// cap and appends in the same locked step, so two purchases at once (in one process or two) cannot both slip
// under the cap. A torn last line (a crash mid-write) is skipped when read and never glued to the next one.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

export type LedgerStatus =
  | "reserved" // checks passed, about to be signed
  | "paid" // delivered, and the chain shows exactly the price moved
  | "free" // a free item, nothing signed
  | "job-pending" // paid; an asynchronous item to collect later
  | "job-done" // the job's result was collected
  | "declined" // the person said no; nothing signed
  | "refused" // the server refused; the authorisation was not used, nothing moved
  | "disputed" // money moved but the server delivered nothing, or not what the chain shows
  | "unknown"; // the outcome could not be established (treated as spent)

/**
 * Why an attempt ended where it did, as a value (a ledger decides what to release from it, never from `note`):
 * `signing_failed` nothing was signed; the paid call's answer (`no_answer`, `refused`, `tool_failed`,
 * `no_settlement`, purchase/types.ts AnswerCode); `unverified` the chain could not confirm the answer.
 */
export type AttemptCode = "signing_failed" | "no_answer" | "refused" | "tool_failed" | "no_settlement" | "unverified";

export type LedgerEntry = {
  id: string;
  time: string;
  /** The server's name as the registry lists it (or its URL with direct access). */
  server: string;
  serverUrl?: string;
  item: string;
  /** USDC units as a decimal string. */
  units: string;
  status: LedgerStatus;
  transaction?: string;
  payTo?: string;
  /** A digest of the purchase's parameters (policy.identicalPerHour compares them; the values stay out of the file). */
  params?: string;
  orderId?: string;
  jobId?: string;
  checkAfter?: string;
  /** Why the attempt ended where it did (AttemptCode); `note` is the same in words, for people. */
  code?: AttemptCode;
  note?: string;
};

/** Statuses whose amount counts against a budget: reserved (about to be signed), paid, or not known to be unspent. */
export const SPENT: ReadonlySet<LedgerStatus> = new Set([
  "reserved",
  "paid",
  "job-pending",
  "job-done",
  "disputed",
  "unknown",
]);

/** A purchase the spending policy refused when the ledger checked it under its lock: `message` names the rule. */
export class PolicyRefused extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = "PolicyRefused";
  }
}

export class CapExceeded extends Error {
  constructor(
    readonly spentUnits: bigint,
    readonly capUnits: bigint,
  ) {
    super("daily cap");
  }
}

type NewAttempt = Omit<LedgerEntry, "id" | "time" | "status">;
type AttemptChange = Partial<Omit<LedgerEntry, "id">> & { status: LedgerStatus };

/** What every ledger a purchase writes to does: a later state of an attempt, and a line of its own. */
type LedgerWrites = {
  update: (id: string, change: AttemptChange) => Promise<void>;
  append: (entry: LedgerEntry) => Promise<void>;
};

/**
 * A ledger that keeps the wallet's own history (this file's Ledger): the spending policy reads its attempts before
 * anything is signed, and `reserveChecked` records a new attempt as reserved only if `check` (every rule of the
 * policy, given the attempts so far) finds nothing to refuse, in one locked step; it throws PolicyRefused otherwise
 * and records nothing.
 */
type WalletLedger = LedgerWrites & {
  kind: "wallet";
  attempts: () => LedgerEntry[];
  reserveChecked: (
    entry: NewAttempt,
    check: (attempts: LedgerEntry[], now: Date) => { rule: string; message: string } | undefined,
  ) => Promise<Pick<LedgerEntry, "id">>;
};

/**
 * A ledger that keeps no history here (the registry's test purchases, in its database): the per-purchase maximum is
 * checked before signing, and `reserve` records the attempt under the day's budget in a step two buyers at once
 * cannot both slip under, throwing CapExceeded otherwise.
 */
export type BudgetLedger = LedgerWrites & {
  kind: "budget";
  spentToday: () => bigint | Promise<bigint>;
  reserve: (entry: NewAttempt, capUnits: bigint) => Promise<Pick<LedgerEntry, "id">>;
};

/** What a purchase needs of a ledger: one of the two kinds, each with its own spending regime. */
export type PurchaseLedger = WalletLedger | BudgetLedger;

const LOCK_STALE_MS = 30_000;
const LOCK_WAIT_MS = 10_000;

export class Ledger implements WalletLedger {
  readonly kind = "wallet";

  constructor(readonly file: string) {}

  private get lockFile() {
    return `${this.file}.lock`;
  }

  /** Runs `work` holding the ledger's lock file (O_EXCL create; a lock older than 30 s is a crashed holder's). */
  async withLock<T>(work: () => T | Promise<T>): Promise<T> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const deadline = Date.now() + LOCK_WAIT_MS;
    let fd: number | undefined;
    while (fd === undefined) {
      try {
        fd = fs.openSync(this.lockFile, "wx", 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        try {
          if (Date.now() - fs.statSync(this.lockFile).mtimeMs > LOCK_STALE_MS) fs.unlinkSync(this.lockFile);
        } catch {
          // Released meanwhile.
        }
        if (Date.now() > deadline) throw new Error(`The ledger is locked (${this.lockFile}); try again.`);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      }
    }
    try {
      fs.writeSync(fd, String(process.pid));
      return await work();
    } finally {
      fs.closeSync(fd);
      fs.rmSync(this.lockFile, { force: true });
    }
  }

  /** Every readable line, in order; a torn or foreign line is skipped. */
  lines(): LedgerEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const entries: LedgerEntry[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as LedgerEntry;
        if (entry && typeof entry.id === "string" && typeof entry.status === "string" && /^\d+$/.test(entry.units))
          entries.push(entry);
      } catch {
        // A line torn by a crash mid-write.
      }
    }
    return entries;
  }

  /** Each attempt in its latest state, in the order the attempts began. */
  attempts(): LedgerEntry[] {
    const byId = new Map<string, LedgerEntry>();
    for (const line of this.lines()) {
      const first = byId.get(line.id);
      byId.set(line.id, first ? { ...first, ...line, time: first.time } : line);
    }
    return [...byId.values()];
  }

  /** Units spent (or reserved) since midnight UTC. */
  spentToday(now = new Date()): bigint {
    const day = now.toISOString().slice(0, 10);
    return this.attempts()
      .filter((a) => a.time.slice(0, 10) === day && SPENT.has(a.status))
      .reduce((sum, a) => sum + BigInt(a.units), 0n);
  }

  private appendUnlocked(entry: LedgerEntry): void {
    const fd = fs.openSync(this.file, "a+", 0o600);
    try {
      const size = fs.fstatSync(fd).size;
      let prefix = "";
      if (size > 0) {
        const last = Buffer.alloc(1);
        fs.readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = "\n"; // end a torn line so it stays one unreadable line
      }
      fs.writeSync(fd, `${prefix}${JSON.stringify(entry)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Appends a line (a new attempt or a later state of one). */
  async append(entry: LedgerEntry): Promise<void> {
    await this.withLock(() => this.appendUnlocked(entry));
  }

  /**
   * Records a new attempt as reserved when it fits under the daily cap, in one locked step; throws CapExceeded
   * otherwise (and records nothing).
   */
  async reserve(entry: NewAttempt, capUnits: bigint, now = new Date()): Promise<LedgerEntry> {
    return this.withLock(() => {
      const spent = this.spentToday(now);
      if (spent + BigInt(entry.units) > capUnits) throw new CapExceeded(spent, capUnits);
      const line: LedgerEntry = { id: newAttemptId(), time: now.toISOString(), status: "reserved", ...entry };
      this.appendUnlocked(line);
      return line;
    });
  }

  async reserveChecked(
    entry: NewAttempt,
    check: (attempts: LedgerEntry[], now: Date) => { rule: string; message: string } | undefined,
  ): Promise<LedgerEntry> {
    return this.withLock(() => {
      const now = new Date();
      const refusal = check(this.attempts(), now);
      if (refusal) throw new PolicyRefused(refusal.rule, refusal.message);
      const line: LedgerEntry = { id: newAttemptId(), time: now.toISOString(), status: "reserved", ...entry };
      this.appendUnlocked(line);
      return line;
    });
  }

  /** A later state of an attempt: only the fields that change. */
  async update(id: string, change: AttemptChange): Promise<void> {
    const current = this.attempts().find((a) => a.id === id);
    if (!current) throw new Error(`No ledger attempt ${id}`);
    await this.append({ ...current, ...change, id, time: new Date().toISOString() });
  }
}

export function newAttemptId(): string {
  return `att_${randomBytes(8).toString("hex")}`;
}
