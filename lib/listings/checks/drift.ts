// Drift: what a check found that differs from what the reviewer approved — a price, a payee wallet, the tool
// set. A pure comparison; db/queries/probes.ts records what it finds in the check's transaction.
import type { DriftFinding, ProbeTerms } from "@/db/queries/drift";
import type { ApprovedTerms } from "@/db/schema";
import { recordProbe, type ProbeTarget, type RecordedProbe } from "@/db/queries/probes";
import type { Db } from "@/db/types";
import type { AcceptedPayment, PricedItem } from "@agora-mcp/protocol";
import type { ProbeResult } from "@/db/probe-result";

const price = (p: { amount: number; currency: string }) => `${p.amount} ${p.currency}`;

function priceDrift(approved: ApprovedTerms["prices"], found: PricedItem[]): DriftFinding[] {
  const before = new Map(approved.map((p) => [p.name, price(p)]));
  const after = new Map(found.map((p) => [p.name, price(p)]));
  const names = [...new Set([...before.keys(), ...after.keys()])];
  return names
    .filter((name) => before.get(name) !== after.get(name))
    .map((name) => ({ kind: "price", subject: name, approved: before.get(name) ?? "not offered", found: after.get(name) ?? "no longer offered" }));
}

// Addresses compare without case (EIP-55 checksums only change letter case).
function walletDrift(approved: AcceptedPayment[], found: AcceptedPayment[]): DriftFinding[] {
  const wallets = (list: AcceptedPayment[], method: string) =>
    [...new Set(list.filter((m) => m.paymentMethod === method).map((m) => m.walletAddress.toLowerCase()))].sort().join(", ") || "none";
  const methods = [...new Set([...approved, ...found].map((m) => m.paymentMethod))];
  return methods
    .filter((method) => wallets(approved, method) !== wallets(found, method))
    .map((method) => ({ kind: "wallet", subject: method, approved: wallets(approved, method), found: wallets(found, method) }));
}

/**
 * What differs between the approved terms and a probe that reached the server. Parts the probe could not
 * read (no prices, no payment methods, no tools) are not compared: a failed read is not a change.
 */
export function findDrift(approved: ApprovedTerms, probe: ProbeTerms & { pricesRead: boolean }): DriftFinding[] {
  const findings: DriftFinding[] = [];
  if (probe.pricesRead) findings.push(...priceDrift(approved.prices, probe.pricedItems));
  if (probe.paymentMethods.length > 0) findings.push(...walletDrift(approved.wallets, probe.paymentMethods));
  const tools = probe.tools.map((t) => t.name).sort();
  if (tools.length > 0 && tools.join(", ") !== approved.tools.join(", ")) {
    findings.push({ kind: "tools", subject: "", approved: approved.tools.join(", ") || "none", found: tools.join(", ") });
  }
  return findings;
}

/** Stores a check of a listing's server with its drift against the approved terms, in one transaction. */
export function recordCheck(db: Db, probed: Pick<ProbeTarget, "id" | "revision">, result: ProbeResult, now = new Date()): Promise<RecordedProbe> {
  return recordProbe(db, probed, result, (approved) => findDrift(approved, result), now);
}
