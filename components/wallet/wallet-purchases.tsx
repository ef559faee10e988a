import Link from "next/link";
import { formatUsd } from "@agora-mcp/protocol";
import { TransactionLink } from "@/components/chain/transaction-link";
import { formatDayTime } from "@/lib/dates";
import { PURCHASES_SHOWN, type WalletPurchase } from "@/lib/wallet/page-data";

/** The wallet's purchases from listed servers, newest first, as the site's sales indexer read them from the chain. */
export function WalletPurchases({ purchases }: { purchases: WalletPurchase[] }) {
  if (purchases.length === 0) {
    return (
      <p className="mt-3 text-sm text-muted-foreground" data-testid="no-purchases">
        No purchases from listed servers yet.
      </p>
    );
  }
  return (
    <div className="mt-3 overflow-x-auto rounded-lg border">
      <table className="w-full text-sm" data-testid="purchases">
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className="px-3 py-2 text-left font-medium">
              Server
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 text-left font-medium">
              When
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {purchases.map((p) => (
            <tr key={`${p.network}:${p.txHash}:${p.logIndex}:${p.slug}`} data-testid="purchase">
              <td className="px-3 py-2">
                <Link
                  href={`/marketplace/${p.slug}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {p.listingName}
                </Link>
                <span className="block text-xs text-muted-foreground">{p.networkLabel}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {formatUsd(p.amountUnits)}
                {p.terms && (
                  <span className="block text-xs text-muted-foreground" data-testid="purchase-terms">
                    {p.terms}
                  </span>
                )}
              </td>
              <td className="px-3 py-2 text-muted-foreground">
                {formatDayTime(new Date(p.at))}
                <span className="block text-xs">
                  <TransactionLink place={p} label="View transaction" />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {purchases.length === PURCHASES_SHOWN && (
        <p className="border-t px-3 py-2 text-xs text-muted-foreground">The latest {PURCHASES_SHOWN} purchases.</p>
      )}
    </div>
  );
}
