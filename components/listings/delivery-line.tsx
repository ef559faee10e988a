import { deliverySummary } from "@/lib/listings/delivery-view";
import type { DeliveryCounts } from "@/lib/listings/model";

/** How often the listing's test purchases delivered over 30 days, in one line; nothing when there were none. */
export function DeliveryLine({ counts }: { counts: DeliveryCounts }) {
  const summary = deliverySummary(counts);
  if (!summary) return null;
  return (
    <p data-testid="delivery-30d" className="mt-1 text-sm text-muted-foreground">
      {summary}
    </p>
  );
}
