// Drift: what a check found that differs from what the reviewer approved — a price, a payee wallet, the tool
// set. A pure comparison; db/queries/probes.ts records what it finds in the check's transaction.
import type { DriftFinding, ProbeTerms } from "@/db/queries/drift";
import type { ApprovedTerms } from "@/db/schema";
import { recordProbe, type ProbeTarget, type RecordedProbe } from "@/db/queries/probes";
import type { Db } from "@/db/types";
import type { AcceptedPayment, PricedItem } from "@agora-mcp/protocol";
import type { ProbeResult } from "@/db/probe-result";
import { DEFAULT_PRICE_RISE_REVIEW_FACTOR, env } from "@/lib/env";

const price = (p: { amount: number; currency: string }) => `${p.amount} ${p.currency}`;

type Priced = { amount: number; currency: string };

/**
 * A change buyers must not meet unannounced: the same item dearer than `factor` times its approved price, or priced
 * in another currency (which cannot be compared). A new item, a dropped one, a cheaper price or a small rise is not.
 */
function heldRise(before: Priced | undefined, after: Priced | undefined, factor: number): boolean {
  if (!before || !after) return false;
  if (before.currency !== after.currency) return true;
  return after.amount > before.amount * factor;
}

function priceDrift(approved: ApprovedTerms["prices"], found: PricedItem[], factor: number): DriftFinding[] {
  const before = new Map(approved.map((p) => [p.name, p]));
  const after = new Map(found.map((p) => [p.name, p]));
  const names = [...new Set([...before.keys(), ...after.keys()])];
  const shown = (p: Priced | undefined, absent: string) => (p ? price(p) : absent);
  return names
    .filter((name) => shown(before.get(name), "") !== shown(after.get(name), ""))
    .map((name) => {
      const [was, now] = [before.get(name), after.get(name)];
      const finding: DriftFinding = {
        kind: "price",
        subject: name,
        approved: shown(was, "not offered"),
        found: shown(now, "no longer offered"),
      };
      return heldRise(was, now, factor) ? { ...finding, held: true } : finding;
    });
}

// Addresses compare without case (EIP-55 checksums only change letter case).
function walletDrift(approved: AcceptedPayment[], found: AcceptedPayment[]): DriftFinding[] {
  const wallets = (list: AcceptedPayment[], method: string) =>
    [...new Set(list.filter((m) => m.paymentMethod === method).map((m) => m.walletAddress.toLowerCase()))]
      .sort()
      .join(", ") || "none";
  const methods = [...new Set([...approved, ...found].map((m) => m.paymentMethod))];
  return (
    methods
      .filter((method) => wallets(approved, method) !== wallets(found, method))
      // Buyers following the listing would pay someone else: never shown before a reviewer approves it.
      .map((method) => ({
        kind: "wallet",
        subject: method,
        approved: wallets(approved, method),
        found: wallets(found, method),
        held: true,
      }))
  );
}

/**
 * What differs between the approved terms and a probe that reached the server. Parts the probe could not
 * read (no prices, no payment methods, no tools) are not compared: a failed read is not a change. Findings marked
 * `held` (a price rise past `factor` times the approved price, another payee) keep the approved terms served.
 */
export function findDrift(
  approved: ApprovedTerms,
  probe: ProbeTerms & { pricesRead: boolean },
  factor = DEFAULT_PRICE_RISE_REVIEW_FACTOR,
): DriftFinding[] {
  const findings: DriftFinding[] = [];
  if (probe.pricesRead) findings.push(...priceDrift(approved.prices, probe.pricedItems, factor));
  if (probe.paymentMethods.length > 0) findings.push(...walletDrift(approved.wallets, probe.paymentMethods));
  const tools = probe.tools.map((t) => t.name).sort();
  if (tools.length > 0 && tools.join(", ") !== approved.tools.join(", ")) {
    findings.push({
      kind: "tools",
      subject: "",
      approved: approved.tools.join(", ") || "none",
      found: tools.join(", "),
    });
  }
  return findings;
}

/** Stores a check of a listing's server with its drift against the approved terms, in one transaction. */
export function recordCheck(
  db: Db,
  probed: Pick<ProbeTarget, "id" | "revision">,
  result: ProbeResult,
  now = new Date(),
): Promise<RecordedProbe> {
  const factor = env().PRICE_RISE_REVIEW_FACTOR;
  return recordProbe(db, probed, result, (approved) => findDrift(approved, result, factor), now);
}
