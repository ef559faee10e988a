// A listing's 30-day delivery record from Agora's test purchases and its buyers' signed receipts, in the one
// sentence the detail page shows.
import type { DeliveryCounts } from "@/db/queries/test-purchases";

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/**
 * "Delivered 12 of 13 test purchases in 30 days (1 failed, not charged)"; with buyers' receipts, "Delivered 14 of 15
 * purchases in 30 days (1 failed, not charged); 2 of them reported by buyers' signed receipts"; null when there were none.
 */
export function deliverySummary(counts: DeliveryCounts, days = 30): string | null {
  const { delivered, failedUncharged, failedCharged } = counts;
  const total = delivered + failedUncharged + failedCharged;
  if (total === 0) return null;
  const failures = [
    ...(failedUncharged ? [`${failedUncharged} failed, not charged`] : []),
    ...(failedCharged ? [`${failedCharged} failed after payment`] : []),
  ];
  const fromBuyers = counts.buyerReceipts ? counts.buyerReceipts.delivered + counts.buyerReceipts.failedCharged : 0;
  const what = fromBuyers ? plural(total, "purchase", "purchases") : plural(total, "test purchase", "test purchases");
  const head = `Delivered ${delivered} of ${total} ${what} in ${days} days`;
  const line = failures.length ? `${head} (${failures.join("; ")})` : head;
  return fromBuyers
    ? `${line}; ${fromBuyers} of them reported by ${plural(fromBuyers, "a buyer's signed receipt", "buyers' signed receipts")}`
    : line;
}
