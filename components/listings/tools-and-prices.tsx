import { Wrench } from "lucide-react";
import type { ProbeSnapshot } from "@/lib/listings/model";
import { formatPrice } from "@/lib/listings/format";
import { priceRows, priceText } from "@/lib/listings/presenters/price-rows";

/** What the latest check read the server to sell, each purchasable thing once, with the payees it accepts. */
export function ToolsAndPrices({ probe }: { probe: ProbeSnapshot | null }) {
  return (
    <section>
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Wrench className="size-5 text-muted-foreground" /> Tools and prices
      </h2>
      {probe && probe.tools.length > 0 ? (
        <div className="mt-3 overflow-x-auto rounded-lg border">
          <table className="w-full text-sm" data-testid="tools-and-prices">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th className="px-3 py-2 font-medium">Item or tool</th>
                <th className="px-3 py-2 text-right font-medium">Price</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {priceRows(probe).map((row) => (
                <tr key={row.key}>
                  <td className="px-3 py-2">
                    {row.isTool ? (
                      <code className="font-mono text-xs">{row.name}</code>
                    ) : (
                      <span className="font-medium">{row.name}</span>
                    )}
                    {row.description && <span className="block text-xs text-muted-foreground">{row.description}</span>}
                    {row.alsoX402Tool && (
                      <span className="block text-xs text-muted-foreground">
                        Also sold over x402 as the tool{" "}
                        <code className="font-mono break-words">{row.alsoX402Tool}</code>
                      </span>
                    )}
                  </td>
                  {row.amount === null ? (
                    <td className="px-3 py-2 text-right text-muted-foreground">—</td>
                  ) : (
                    <td className="px-3 py-2 text-right whitespace-nowrap">{priceText(row, formatPrice)}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {probe.paymentMethods.length > 0 && (
            <p className="border-t px-3 py-2 text-xs break-all text-muted-foreground">
              Accepts {probe.paymentMethods.map((m) => `${m.paymentMethod} → ${m.walletAddress}`).join("; ")}
            </p>
          )}
        </div>
      ) : (
        <p className="mt-3 text-sm text-muted-foreground">
          Tools and per-tool prices appear here once the automatic check has read this server&apos;s{" "}
          <code>price-listing</code>. Your agent can always ask the server directly.
        </p>
      )}
    </section>
  );
}
