// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Money outcomes travel as codes, not words. Real purchases on a real chain (anvil, a real facilitator, kit servers on
// loopback) through the agent client's own purchase code end in every way that decides money (delivered, a tool that
// failed uncharged, a failure after settlement, a settlement the facilitator refused, a wallet too short, the day's
// budget spent, the per-purchase maximum, a price that changed, an unknown item); each outcome has its code, and the
// test-purchase runner's decisions (stop the run, what to record) and the ledger's (release or keep the money) are the
// same when every message and every note is reworded. And no money path matches message text.
import fs from "node:fs";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CapExceeded,
  chainReader,
  purchase,
  walletFromKey,
  type BudgetLedger,
  type LedgerEntry,
  type OutcomeCode,
  type PurchaseOutcome,
  type Settings,
} from "@agora-mcp/client";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { createMonetizedServer } from "@agora-mcp/server";
import { moneyOfChange } from "@/lib/test-purchases/ledger";
import { decideOutcome } from "@/lib/test-purchases/run";
import { startRefusingFacilitator } from "../support/refusing-facilitator";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const PRICE = 10_000n;
let stack: PaymentStack;
let kitUrl: string;
let refusingUrl: string;
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  const items = [
    {
      id: "quote",
      name: "Quote",
      description: "A quote",
      price: "0.01",
      params: { topic: "Example: tea" },
      handler: ({ topic }: Record<string, string>) => {
        if (topic === "fail") throw new Error("the quote service is down");
        return `A quote about ${topic}`;
      },
    },
    {
      id: "paid-first",
      name: "Paid first",
      description: "Sold through make-purchase only",
      price: "0.01",
      params: { topic: "Example: tea" },
      x402Tool: false as const,
      handler: () => {
        throw new Error("broke after payment");
      },
    },
  ];
  const kit = await createMonetizedServer({
    name: "codes",
    walletAddress: stack.freshAddress(),
    facilitatorUrl: stack.facilitator.url,
    log: () => {},
    items,
  }).listen({ port: 0 });
  const refusing = await startRefusingFacilitator(stack.facilitator.url);
  const refusingKit = await createMonetizedServer({
    name: "codes-refused",
    walletAddress: stack.freshAddress(),
    facilitatorUrl: refusing.url,
    log: () => {},
    items,
  }).listen({ port: 0 });
  closing.push(
    () => kit.close(),
    () => refusingKit.close(),
    refusing.close,
  );
  kitUrl = kit.url;
  refusingUrl = refusingKit.url;
}, 60_000);

afterAll(async () => {
  for (const close of closing) await close();
  await stack?.stop();
});

/** The site's kind of ledger (no history of its own: a daily cap at reservation), in memory, keeping every change. */
class MemoryLedger implements BudgetLedger {
  readonly kind = "budget";
  reservedId: string | null = null;
  changes: (Partial<LedgerEntry> & { status: LedgerEntry["status"] })[] = [];
  constructor(private readonly capUnits: bigint) {}
  spentToday = () => 0n;
  async reserve(entry: Omit<LedgerEntry, "id" | "time" | "status">, capUnits: bigint) {
    if (BigInt(entry.units) > capUnits) throw new CapExceeded(0n, capUnits);
    this.reservedId = "att_memory";
    return { id: this.reservedId };
  }
  async update(_id: string, change: Partial<Omit<LedgerEntry, "id">> & { status: LedgerEntry["status"] }) {
    this.changes.push(change);
  }
  async append() {}
  get cap() {
    return this.capUnits;
  }
}

type Case = {
  name: string;
  server: () => string;
  item: string;
  topic?: string;
  funds?: bigint;
  cap?: bigint;
  max?: bigint;
  expectUnits?: bigint;
  code: OutcomeCode;
  decision: ReturnType<typeof decideOutcome>;
};

const CASES: Case[] = [
  {
    name: "delivered (x402, settled after success)",
    server: () => kitUrl,
    item: "quote",
    code: "delivered",
    decision: { kind: "paid", verdict: "delivered" },
  },
  {
    name: "a tool that failed, uncharged",
    server: () => kitUrl,
    item: "quote",
    topic: "fail",
    code: "tool_failed_uncharged",
    decision: { kind: "paid", verdict: "refused" },
  },
  {
    name: "a failure after settlement (make-purchase)",
    server: () => kitUrl,
    item: "paid-first",
    code: "charged_failure",
    decision: { kind: "paid", verdict: "not-delivered" },
  },
  {
    name: "a settlement the facilitator refused",
    server: () => refusingUrl,
    item: "quote",
    code: "payment_refused",
    decision: { kind: "paid", verdict: "refused" },
  },
  {
    name: "a wallet too short",
    server: () => kitUrl,
    item: "quote",
    funds: PRICE - 1n,
    code: "insufficient_balance",
    decision: { kind: "skip", stopRun: true },
  },
  {
    name: "the day's budget spent",
    server: () => kitUrl,
    item: "quote",
    cap: PRICE - 1n,
    code: "daily_cap",
    decision: { kind: "skip", stopRun: true },
  },
  {
    name: "above the per-purchase maximum",
    server: () => kitUrl,
    item: "quote",
    max: PRICE - 1n,
    code: "max_per_purchase",
    decision: { kind: "skip", stopRun: false },
  },
  {
    name: "a price that changed",
    server: () => kitUrl,
    item: "quote",
    expectUnits: PRICE + 1n,
    code: "price_changed",
    decision: { kind: "drift" },
  },
  {
    name: "an item not sold",
    server: () => kitUrl,
    item: "cake",
    code: "unknown_item",
    decision: { kind: "skip", stopRun: false },
  },
];

/** Every message, reworded: other words, other order, none of the old phrases. */
const reword = (text: string | undefined) =>
  text === undefined
    ? undefined
    : `Reworded ${text.length} characters: ${[...text].reverse().join("").replace(/[a-z]/g, "x")}`;

async function buy(c: Case): Promise<{
  outcome: PurchaseOutcome;
  ledger: MemoryLedger;
  balanceBefore: bigint;
  balanceAfter: bigint;
  payer: `0x${string}`;
}> {
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  await stack.chain.mintUsdc(payer, c.funds ?? 1_000_000n);
  const ledger = new MemoryLedger(c.cap ?? 1_000_000n);
  const settings: Settings = {
    registryUrl: "",
    elicitation: false,
    thresholdUnits: 0n,
    directAccess: true,
    network: BASE_SEPOLIA,
    rpcUrl: stack.chain.rpcUrl,
    dailyCapUnits: ledger.cap,
    maxPerPurchaseUnits: c.max ?? 1_000_000n,
    walletFile: "",
    walletFileSet: false,
  };
  const deps = { settings, wallet: walletFromKey(key), ledger, chain: chainReader(BASE_SEPOLIA, stack.chain.rpcUrl) };
  const balanceBefore = await stack.chain.usdcBalance(payer);
  const outcome = await purchase(
    {
      server: c.server(),
      item: c.item,
      params: { topic: c.topic ?? "tea" },
      ...(c.expectUnits
        ? { expectTerms: { units: c.expectUnits.toString(), payTo: "0x0000000000000000000000000000000000000001" } }
        : {}),
    },
    deps,
  );
  return { outcome, ledger, balanceBefore, balanceAfter: await stack.chain.usdcBalance(payer), payer };
}

describe("every money outcome has a code, and decisions read only codes", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const { outcome, ledger, balanceBefore, balanceAfter } = await buy(c);
    expect(outcome.code, outcome.message).toBe(c.code);
    // What the money did, from the chain: only the delivery and the failure after settlement moved the price.
    expect(balanceBefore - balanceAfter).toBe(c.code === "delivered" || c.code === "charged_failure" ? PRICE : 0n);

    const money = ledger.changes.length ? moneyOfChange(ledger.changes.at(-1)!) : null;
    const decided = decideOutcome(outcome, ledger.reservedId !== null, money?.money ?? null);
    expect(decided).toEqual(c.decision);

    // The same outcome and ledger changes with every message and note reworded: the same decisions.
    const reworded = { ...outcome, message: reword(outcome.message)! };
    expect(reworded.message).not.toBe(outcome.message);
    const rewordedChanges = ledger.changes.map((change) => ({ ...change, note: reword(change.note) }));
    expect(rewordedChanges.map(moneyOfChange)).toEqual(ledger.changes.map(moneyOfChange));
    const rewordedMoney = rewordedChanges.length ? moneyOfChange(rewordedChanges.at(-1)!).money : null;
    expect(decideOutcome(reworded, ledger.reservedId !== null, rewordedMoney)).toEqual(decided);
  });

  it("releases a reservation only for a payment never signed, and keeps one the server may still settle, by code", () => {
    expect(moneyOfChange({ status: "refused", code: "signing_failed" })).toEqual({ money: "refused", release: true });
    expect(moneyOfChange({ status: "refused", code: "no_answer" })).toEqual({ money: "unknown", release: false });
    expect(moneyOfChange({ status: "refused", code: "tool_failed" })).toEqual({ money: "refused", release: false });
    expect(moneyOfChange({ status: "paid" })).toEqual({ money: "paid", release: false });
  });
});

describe("no money path decides by message text", () => {
  const MONEY_PATHS = [
    "packages/client/src/purchase",
    "packages/client/src/ledger.ts",
    "packages/client/src/tools/purchase.ts",
    "lib/test-purchases",
    "lib/wallet",
    "packages/server/src/sale.ts",
    "packages/server/src/payments.ts",
    "packages/server/src/tools.ts",
    "packages/server/src/jobs.ts",
  ];
  /** Text matched against a message-like value: `.test(message)`, `note.startsWith(…)`, `reason.includes(…)` and the like. */
  const TEXT_MATCH = [
    /\.test\(\s*(String\()?[\w.?]*(message|reason|note|error|text)\b/i,
    /\b(message|reason|note|error|text)\w*\)?\s*(\?\?\s*"")?\)?\.(includes|startsWith|endsWith|match|search)\(/i,
  ];

  it("finds no .test(message), .includes or .startsWith on a message in the client's purchase path, the runner, the ledger or the kit's sale", () => {
    const files = MONEY_PATHS.flatMap((p) =>
      fs.statSync(p).isDirectory()
        ? fs
            .readdirSync(p)
            .filter((f) => f.endsWith(".ts"))
            .map((f) => path.join(p, f))
        : [p],
    );
    expect(files.length).toBeGreaterThan(15);
    const hits = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${file}:${i + 1}`, line: line.trim() }))
        .filter(
          ({ line }) => !line.startsWith("//") && !line.startsWith("*") && TEXT_MATCH.some((re) => re.test(line)),
        ),
    );
    expect(hits).toEqual([]);
  });

  it("would find one (the check can fail)", () => {
    const before = "    const stopRun = /daily cap|the wallet holds/.test(message);";
    const ledgerBefore =
      '    const unanswered = change.status === "refused" && (change.note ?? "").startsWith("the call failed");';
    expect(TEXT_MATCH.some((re) => re.test(before))).toBe(true);
    expect(TEXT_MATCH.some((re) => re.test(ledgerBefore))).toBe(true);
  });
});
