// One log line per purchase, so a provider watching the terminal sees each sale as it happens:
//   purchase word-count $0.01 by 0x1234…abcd: delivered (tx 0xabc…)
// On by default; `logPurchases: false` silences it (onPurchase still hears every event).
import { formatUsd } from "@agora-mcp/protocol";
import type { PurchaseEvent, ResolvedOptions } from "./config.js";

export function purchaseLine(event: PurchaseEvent): string {
  const units = BigInt(event.units);
  const price = units === 0n ? "free" : formatUsd(units);
  const payer = event.payer ? ` by ${event.payer}` : "";
  const tx = event.transaction ? ` (tx ${event.transaction})` : "";
  const reason = event.reason ? ` (${event.reason.split("\n")[0]!.slice(0, 200)})` : "";
  return `purchase ${event.itemId} ${price}${payer}: ${event.outcome}${reason}${tx}`;
}

/** What the tools call for each purchase: the log line (unless turned off), then the provider's own onPurchase. */
export function purchaseReporter(
  options: Pick<ResolvedOptions, "log" | "logPurchases" | "onPurchase">,
): (event: PurchaseEvent) => void {
  return (event) => {
    if (options.logPurchases) options.log(purchaseLine(event));
    options.onPurchase?.(event);
  };
}
