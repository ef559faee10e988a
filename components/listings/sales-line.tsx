import { ShoppingCart } from "lucide-react";
import type { SalesSummary } from "@/lib/listings/model";

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** The card's line of proof of business: sales and distinct buyers in the last 30 days, read from the chain. */
export function SalesLine({ sales }: { sales: SalesSummary | undefined }) {
  if (!sales) return null;
  const { last30d, allTime } = sales;
  const text =
    allTime.sales === 0
      ? "No sales yet"
      : `${plural(last30d.sales, "sale")} · ${plural(last30d.buyers, "buyer")} in 30 days`;
  return (
    <p className="mt-3 flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="sales-line">
      <ShoppingCart className="size-3.5 shrink-0" aria-hidden="true" />
      {text}
    </p>
  );
}
