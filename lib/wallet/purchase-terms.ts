// How a wallet page row says what a purchase was, beside what it paid: a metered call names its maximum ("up to
// $0.10, paid $0.03") and a payment channel's claim its calls ("50 calls at $0.001"), the number of calls being the
// claim divided by the price of one (the indexer keeps a claim only when that is whole). Exact amounts throughout:
// bigint division of token units, never floating point.
import { formatUsd } from "@agora-mcp/protocol";
import type { PurchaseByPayer } from "@/db/queries/sales";

/** The row's line under its amount, or null for a plain purchase at its price (or a sale stored before terms were kept). */
export function purchaseTerms({
  kind,
  amountUnits,
  askedUnits,
}: Pick<PurchaseByPayer, "kind" | "amountUnits" | "askedUnits">): string | null {
  if (askedUnits === null || kind === "exact") return null;
  if (kind === "metered") return `Metered: up to ${formatUsd(askedUnits)}, paid ${formatUsd(amountUnits)}`;
  const perCall = BigInt(askedUnits);
  const amount = BigInt(amountUnits);
  if (perCall <= 0n || amount % perCall !== 0n) return `Payment channel: ${formatUsd(amountUnits)} claimed`;
  const calls = amount / perCall;
  return `Payment channel: ${calls.toLocaleString("en-US")} call${calls === 1n ? "" : "s"} at ${formatUsd(askedUnits)}`;
}
