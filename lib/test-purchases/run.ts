// Agora's test purchases: for each approved paid listing due one, buy its cheapest fillable item with the agent
// client's own purchase code (packages/client: the same limits, reservation, signing and chain check), within the
// day's budget held in the database, through a fetch bounded in address, size and time, and record what came
// back. Runs after the scheduled checks under their lease (lib/jobs/scheduled-work.ts).
import { purchase, readJob, type OutcomeCode, type PurchaseOutcome, type Settings } from "@agora-mcp/client";
import { findNetwork, type PaymentNetwork } from "@agora-mcp/protocol";
import { latestProbes } from "@/db/queries/probes";
import {
  excludedItems,
  finishTestPurchase,
  insertTestPurchase,
  listTestPurchaseTargets,
  type TestPurchaseTarget,
} from "@/db/queries/test-purchases";
import type { ListingProbe, TestPurchaseOutcome } from "@/db/schema";
import type { Db } from "@/db/types";
import { changed } from "@/lib/cache/invalidate";
import { ChainMismatchError, chainReader, verifiedChainReader } from "@/lib/chain/reader";
import { logError } from "@/lib/log";
import { createSafeFetch, type Lookup } from "@/lib/ssrf";
import { siteChainReader } from "./chain";
import { chooseItem, type ChosenItem } from "./choose-item";
import { DatabaseLedger } from "./ledger";
import type { TestPurchaseSettings } from "./settings";

/** The largest answer a test purchase reads; a bigger one is a failed delivery. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** Listings bought from in one run at most (the rest wait for the next run). */
const RUN_LIMIT = 20;
/** Due listings looked at in one run: those with nothing to buy are passed over without any network call. */
const CANDIDATES = 200;

type TestPurchaseResult =
  | { kind: "recorded"; outcome: TestPurchaseOutcome; message: string }
  /** Nothing bought and nothing recorded: no item fits, no chain, or the wallet or budget cannot pay. */
  | { kind: "skipped"; reason: string; stopRun?: boolean; contacted?: boolean };

type TestPurchaseRunSummary = {
  due: number;
  recorded: Partial<Record<TestPurchaseOutcome, number>>;
  skipped: number;
  stoppedEarly: string | null;
};

export type RunOptions = { signal?: AbortSignal; lookup?: Lookup; limit?: number };

/** Refusals that no other listing's purchase can get past today: the day's budget is spent, or the wallet is short. */
const STOPS_RUN: ReadonlySet<OutcomeCode> = new Set(["daily_cap", "insufficient_balance"]);

/** The network the listing is paid on that the site can read, and the payee the latest check recorded there. */
function payableNetwork(probe: ListingProbe): { network: PaymentNetwork; payTo: string } | null {
  for (const method of probe.paymentMethods ?? []) {
    const network = findNetwork(method.paymentMethod);
    if (network && chainReader(network.caip2)) return { network, payTo: method.walletAddress };
  }
  // A server selling only through the x402 binding names its payee in each tool's requirements.
  for (const item of probe.pricedItems ?? []) {
    const network = findNetwork(item.x402Requirements?.network);
    if (network && chainReader(network.caip2)) return { network, payTo: item.x402Requirements!.payTo };
  }
  return null;
}

function purchaseSettings(settings: TestPurchaseSettings, network: PaymentNetwork): Settings {
  // Direct access to the listing's own URL, nobody to ask, and the site's own limits.
  return {
    registryUrl: "",
    elicitation: false,
    thresholdUnits: 0n,
    directAccess: true,
    network,
    rpcUrl: "",
    dailyCapUnits: settings.budgetUnits,
    maxPerPurchaseUnits: settings.maxUnits,
    walletFile: "",
    walletFileSet: false,
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

export async function runTestPurchases(
  db: Db,
  settings: TestPurchaseSettings,
  options: RunOptions = {},
): Promise<TestPurchaseRunSummary> {
  const limit = options.limit ?? RUN_LIMIT;
  const targets = await listTestPurchaseTargets(db, settings.intervalMs, Math.max(limit, CANDIDATES));
  const probes = await latestProbes(
    db,
    targets.map((t) => t.id),
  );
  const summary: TestPurchaseRunSummary = { due: targets.length, recorded: {}, skipped: 0, stoppedEarly: null };
  let attempts = 0;
  for (const target of targets) {
    if (options.signal?.aborted || attempts >= limit) break;
    const result = await testPurchase(db, settings, target, probes.get(target.id) ?? null, options);
    if (result.kind === "recorded" || result.contacted) attempts++;
    if (result.kind === "recorded") summary.recorded[result.outcome] = (summary.recorded[result.outcome] ?? 0) + 1;
    else {
      summary.skipped++;
      if (result.stopRun) {
        summary.stoppedEarly = result.reason;
        break;
      }
    }
  }
  // A recorded purchase changes the listing's line and badges (Delivery tested, and Verified for one that took the
  // money and delivered nothing): the cached marketplace and detail pages must not keep the old state for minutes.
  if (Object.keys(summary.recorded).length > 0) {
    await changed("catalogue").catch((error: unknown) =>
      logError("could not revalidate pages after test purchases", error),
    );
  }
  return summary;
}

/** One listing's test purchase, recorded. */
export async function testPurchase(
  db: Db,
  settings: TestPurchaseSettings,
  target: TestPurchaseTarget,
  probe: ListingProbe | null,
  options: RunOptions = {},
): Promise<TestPurchaseResult> {
  const chosen = await chooseWhatToBuy(db, settings, target, probe);
  if ("skipped" in chosen) return chosen.skipped;
  const { network, item, payTo } = chosen;

  // Nothing is signed against an RPC that serves another chain (or does not answer): the run stops.
  const client = await verifiedChainReader(network.caip2).catch((error: Error) => error);
  if (!client || client instanceof Error) {
    return {
      kind: "skipped",
      reason: client instanceof ChainMismatchError ? client.message : `${network.label}'s RPC did not answer`,
      stopRun: true,
    };
  }
  const ledger = new DatabaseLedger(db, target.id, network.caip2, settings.wallet.address);
  const safe = createSafeFetch({
    allowPrivateHosts: settings.allowPrivateHosts,
    lookup: options.lookup,
    timeoutMs: settings.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
  });
  const deadline = AbortSignal.timeout(settings.timeoutMs * 3);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const connection = { fetch: safe, callTimeoutMs: settings.timeoutMs, signal };
  const deps = {
    settings: purchaseSettings(settings, network),
    wallet: settings.wallet,
    ledger,
    chain: siteChainReader(client, network),
    connection,
  };
  const record: PurchaseRecord = {
    listingId: target.id,
    item: item.key,
    network: network.caip2,
    payTo,
    units: item.units,
    wallet: settings.wallet.address,
  };
  const started = performance.now();

  let outcome: PurchaseOutcome;
  try {
    outcome = await purchase(
      {
        server: target.serverUrl,
        item: item.key,
        params: item.params,
        expectTerms: { units: item.units.toString(), payTo },
        ...(item.paidTool ? { paidTool: item.paidTool } : {}),
      },
      deps,
    );
  } catch (error) {
    return await recordThrown(db, settings, ledger, error);
  } finally {
    await safe.close().catch(() => {});
  }
  const elapsed = Math.round(performance.now() - started);
  return recordOutcome(db, { settings, target, ledger, record, connection, signal: options.signal }, outcome, elapsed);
}

/** What a test purchase's row says before its outcome: the listing, the item, and the network, payee and amount. */
type PurchaseRecord = Omit<Parameters<typeof insertTestPurchase>[1], "outcome" | "note">;

/** The item to buy and where its money goes, or why there is none (no read prices, no readable network, no item). */
async function chooseWhatToBuy(
  db: Db,
  settings: TestPurchaseSettings,
  target: TestPurchaseTarget,
  probe: ListingProbe | null,
): Promise<{ skipped: TestPurchaseResult } | { network: PaymentNetwork; item: ChosenItem; payTo: string }> {
  if (!probe?.verifiable)
    return { skipped: { kind: "skipped", reason: "its latest check did not read its prices and payee" } };
  const payable = payableNetwork(probe);
  if (!payable)
    return { skipped: { kind: "skipped", reason: "it is paid on no network the site can read (CHAIN_RPC_URLS)" } };
  const { network } = payable;
  const excluded = await excludedItems(db, target.id);
  const item = chooseItem(probe.pricedItems ?? [], {
    network,
    excluded,
    maxUnits: settings.maxUnits,
    tools: probe.tools ?? [],
  });
  if (!item)
    return {
      skipped: {
        kind: "skipped",
        reason: "no item within the per-purchase maximum can be filled from its own examples",
      },
    };
  return { network, item, payTo: item.payTo ?? payable.payTo };
}

/** A purchase that threw: skipped before any reservation, else recorded as not delivered (the money counts as spent). */
async function recordThrown(
  db: Db,
  settings: TestPurchaseSettings,
  ledger: DatabaseLedger,
  error: unknown,
): Promise<TestPurchaseResult> {
  const message = settings.wallet
    .redact(error instanceof Error ? error.message.split("\n")[0]! : String(error))
    .slice(0, 300);
  if (!ledger.reservedId) return { kind: "skipped", reason: message, contacted: true };
  // Failed after the reservation: the money's state is the ledger's last word on it (unknown counts as spent).
  await finishTestPurchase(db, ledger.reservedId, { outcome: "not-delivered", note: message });
  return { kind: "recorded", outcome: "not-delivered", message };
}

/**
 * What a purchase's outcome means for the run, decided by its status, code and the ledger's last word on the money
 * (never by the words of its message): drift and a free answer are recorded at once; without a reservation, a failure
 * is recorded and the wallet's own refusals are skipped (a spent day's budget or a short wallet stops the run); a paid
 * purchase by what came back and what the money did.
 */
type OutcomeDecision =
  | { kind: "drift" }
  | { kind: "free" }
  | { kind: "skip"; stopRun: boolean }
  | { kind: "unsigned-failure" }
  | { kind: "paid"; verdict: "delivered" | "collect-job" | "refused" | "not-delivered" };

export function decideOutcome(
  outcome: Pick<PurchaseOutcome, "status" | "code" | "signed">,
  reserved: boolean,
  money: string | null,
): OutcomeDecision {
  if (outcome.status === "drift") return { kind: "drift" };
  if (outcome.status === "free") return { kind: "free" };
  if (!reserved)
    return outcome.status === "failed"
      ? { kind: "unsigned-failure" }
      : { kind: "skip", stopRun: STOPS_RUN.has(outcome.code) };
  if (outcome.status === "delivered") return { kind: "paid", verdict: "delivered" };
  if (outcome.status === "job-pending") return { kind: "paid", verdict: "collect-job" };
  // The server refused, or its tool failed, and the payment was not used.
  if (outcome.status === "failed" && outcome.signed && money === "refused") return { kind: "paid", verdict: "refused" };
  return { kind: "paid", verdict: "not-delivered" }; // disputed: money moved (or may have), nothing good came back
}

/** Records how a purchase ended, as decideOutcome says. */
async function recordOutcome(
  db: Db,
  run: {
    settings: TestPurchaseSettings;
    target: TestPurchaseTarget;
    ledger: DatabaseLedger;
    record: PurchaseRecord;
    connection: Parameters<typeof collectJob>[3];
    signal?: AbortSignal;
  },
  outcome: PurchaseOutcome,
  elapsed: number,
): Promise<TestPurchaseResult> {
  const { settings, ledger, record } = run;
  const message = settings.wallet.redact(outcome.message);
  const decision = decideOutcome(outcome, ledger.reservedId !== null, ledger.money);
  if (decision.kind === "drift") {
    await insertTestPurchase(db, { ...record, payTo: outcome.payTo ?? record.payTo, outcome: "drift", note: message });
    return { kind: "recorded", outcome: "drift", message };
  }
  if (decision.kind === "free") {
    await insertTestPurchase(db, { ...record, outcome: "delivered", note: message }).then((id) =>
      finishTestPurchase(db, id, { outcome: "delivered", deliveredMs: elapsed }),
    );
    return { kind: "recorded", outcome: "delivered", message };
  }
  if (decision.kind === "unsigned-failure") {
    await insertTestPurchase(db, { ...record, outcome: "not-delivered", note: message });
    return { kind: "recorded", outcome: "not-delivered", message };
  }
  if (decision.kind === "skip") return { kind: "skipped", reason: message, stopRun: decision.stopRun, contacted: true };
  let verdict: { outcome: TestPurchaseOutcome; deliveredMs?: number };
  if (decision.verdict === "delivered")
    verdict = { outcome: "delivered", deliveredMs: outcome.answeredInMs ?? elapsed };
  else if (decision.verdict === "collect-job")
    verdict = await collectJob(settings, run.target, outcome, run.connection, run.signal);
  else verdict = { outcome: decision.verdict };
  await finishTestPurchase(db, ledger.reservedId!, { ...verdict, note: message, transaction: outcome.transaction });
  return { kind: "recorded", outcome: verdict.outcome, message };
}

/** An asynchronous item: delivered only when its job finishes within its promised time (and one timeout more). */
async function collectJob(
  settings: TestPurchaseSettings,
  target: TestPurchaseTarget,
  outcome: PurchaseOutcome,
  connection: { fetch: typeof fetch | ReturnType<typeof createSafeFetch>; callTimeoutMs: number },
  signal?: AbortSignal,
): Promise<{ outcome: TestPurchaseOutcome; deliveredMs?: number }> {
  const promisedMs = (outcome.checkAfterSeconds ?? 60) * 1000;
  const started = performance.now();
  const until = started + promisedMs + settings.timeoutMs;
  let wait = promisedMs;
  while (!signal?.aborted) {
    await sleep(Math.max(0, Math.min(wait, until - performance.now())), signal);
    const safe = createSafeFetch({
      allowPrivateHosts: settings.allowPrivateHosts,
      timeoutMs: settings.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
    const check = await readJob(target.serverUrl, outcome.jobId!, {
      wallet: settings.wallet,
      server: target.name,
      item: outcome.item ?? "",
      connection: { ...connection, fetch: safe },
    })
      .catch(() => ({ status: "unknown" as const, checkAfterSeconds: undefined }))
      .finally(() => void safe.close().catch(() => {}));
    if (check.status === "done")
      return {
        outcome: "delivered",
        deliveredMs: (outcome.answeredInMs ?? 0) + Math.round(performance.now() - started),
      };
    if (check.status === "failed" || performance.now() >= until) break;
    wait = Math.max(1_000, (check.checkAfterSeconds ?? 5) * 1000);
  }
  return { outcome: "not-delivered" };
}
