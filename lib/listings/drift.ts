// Drift: what a probe found that differs from what the reviewer approved — a price, a payee wallet, the tool
// set. Pure functions; db/queries/probes.ts records what they find in the probe's transaction.
import type { ApprovedTerms, DriftKind } from "@/db/schema";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@/lib/probe/types";

export type DriftFinding = { kind: DriftKind; subject: string; approved: string; found: string };

type ProbeTerms = { tools: ProbedTool[]; pricedItems: PricedItem[]; paymentMethods: AcceptedPayment[] };

export function termsOf(probe: ProbeTerms): ApprovedTerms {
  return {
    prices: probe.pricedItems.map((i) => ({ name: i.name, amount: i.amount, currency: i.currency })),
    wallets: probe.paymentMethods.map((m) => ({ paymentMethod: m.paymentMethod, walletAddress: m.walletAddress })),
    tools: probe.tools.map((t) => t.name).sort(),
  };
}

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
