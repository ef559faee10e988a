// A listing's 30-day delivery record from Agora's test purchases, in the one sentence the detail page shows.
import type { DeliveryCounts } from "@/db/queries/test-purchases";

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** "Delivered 12 of 13 test purchases in 30 days (1 failed, not charged)"; null when there were none. */
export function deliverySummary(counts: DeliveryCounts, days = 30): string | null {
  const { delivered, failedUncharged, failedCharged } = counts;
  const total = delivered + failedUncharged + failedCharged;
  if (total === 0) return null;
  const failures = [
    ...(failedUncharged ? [`${failedUncharged} failed, not charged`] : []),
    ...(failedCharged ? [`${failedCharged} failed after payment`] : []),
  ];
  const head = `Delivered ${delivered} of ${total} ${plural(total, "test purchase", "test purchases")} in ${days} days`;
  return failures.length ? `${head} (${failures.join("; ")})` : head;
}
