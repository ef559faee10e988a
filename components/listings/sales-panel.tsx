import { ShoppingCart } from "lucide-react";
import { TransactionLink } from "@/components/chain/transaction-link";
import { formatDayTime } from "@/lib/dates";
import type { SalesSummary } from "@/lib/listings/model";
import { salesFacts } from "@/lib/listings/presenters/sales-facts";
import { SalesChart } from "./sales-chart";

/** The detail page's sales: counts, buyers and volume for 7 / 30 days and all time, the last sale, a daily chart. */
/**
 * `readEverySeconds`: how often the site reads the chain for sales (SALES_INDEX_INTERVAL_SECONDS). `channelItems`: the
 * server sells through payment channels, whose calls reach the chain as claims, each counted as one sale.
 */
export function SalesPanel({
  sales,
  daily,
  readEverySeconds,
  channelItems = false,
}: {
  sales: SalesSummary;
  daily: { day: string; sales: number }[];
  readEverySeconds: number;
  channelItems?: boolean;
}) {
  const facts = salesFacts(sales);
  const columns = [
    { label: "7 days", w: facts.last7d },
    { label: "30 days", w: facts.last30d },
    { label: "All time", w: facts.allTime },
  ];
  const last = facts.lastSale;
  return (
    <section data-testid="sales-panel">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <ShoppingCart className="size-5 text-muted-foreground" /> Sales
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Payments to this server&apos;s wallets, read from the chain: a new sale shows here within{" "}
        {readEverySeconds <= 60 ? "a minute" : `${Math.ceil(readEverySeconds / 60)} minutes`} of settling.
      </p>
      {channelItems && (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="channel-sales-note">
          Calls paid through a payment channel count when the server claims them: each claim is one sale, whatever
          number of calls it paid.
        </p>
      )}
      <div className="mt-3 overflow-x-auto rounded-lg border">
        <table className="w-full text-sm">
          <thead className="bg-muted/50">
            <tr>
              <th className="px-3 py-2 text-left font-medium">
                <span className="sr-only">Figure</span>
              </th>
              {columns.map((c) => (
                <th key={c.label} scope="col" className="px-3 py-2 text-right font-medium">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y tabular-nums">
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-normal text-muted-foreground">
                Sales
              </th>
              {columns.map((c) => (
                <td key={c.label} className="px-3 py-2 text-right">
                  {c.w.sales.toLocaleString("en-US")}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-normal text-muted-foreground">
                Unique buyers
              </th>
              {columns.map((c) => (
                <td key={c.label} className="px-3 py-2 text-right">
                  {c.w.buyers.toLocaleString("en-US")}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-normal text-muted-foreground">
                Volume
              </th>
              {columns.map((c) => (
                <td key={c.label} className="px-3 py-2 text-right">
                  ${c.w.volumeUsd}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-sm text-muted-foreground" data-testid="last-sale">
        {last ? (
          <>
            Last sale: ${last.amountUsd} on <time dateTime={last.at}>{formatDayTime(new Date(last.at))}</time>
            {(last.explorerUrl || last.localChain) && (
              <>
                {" · "}
                <TransactionLink place={last} label="View transaction" />
              </>
            )}
          </>
        ) : (
          "No sales recorded yet."
        )}
      </p>
      {/* A chart of nothing but zeros is an empty frame: only a listing with sales in the period gets one. */}
      {daily.some((d) => d.sales > 0) && <SalesChart days={daily} />}
    </section>
  );
}
