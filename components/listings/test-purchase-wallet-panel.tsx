import type { UndeliveredListing, WalletStatus } from "@/lib/test-purchases/owner";
import { toTestPurchaseView } from "@/lib/listings/test-purchase-view";
import Link from "next/link";

/** The admin's view of the test-purchase wallet, and the listings that took its money and delivered nothing. */
export function TestPurchaseWalletPanel({
  wallet,
  undelivered,
}: {
  wallet: WalletStatus;
  undelivered: UndeliveredListing[];
}) {
  return (
    <section
      aria-labelledby="test-purchases"
      className="mt-10 rounded-xl border bg-card p-5 shadow-xs"
      data-testid="test-purchase-wallet"
    >
      <h2 id="test-purchases" className="text-lg font-semibold">
        Test purchases
      </h2>
      {wallet.address ? (
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Wallet</dt>
          <dd className="font-mono text-xs break-all">{wallet.address}</dd>
          <dt className="text-muted-foreground">Balance</dt>
          <dd>
            {wallet.balanceUsd !== null
              ? `${wallet.balanceUsd} USDC${wallet.network ? ` on ${wallet.network}` : ""}`
              : "unknown (no CHAIN_RPC_URLS for its network)"}
          </dd>
          <dt className="text-muted-foreground">Spent today</dt>
          <dd>
            {wallet.spentTodayUsd} of {wallet.budgetUsd} {wallet.on ? "" : "(off: the daily budget is 0)"}
          </dd>
          <dt className="text-muted-foreground">Per purchase</dt>
          <dd>at most {wallet.maxPerPurchaseUsd}</dd>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">
          Off: set TEST_PURCHASE_WALLET_KEY and TEST_PURCHASE_DAILY_BUDGET to buy from each paid listing on a schedule.
        </p>
      )}
      {undelivered.length > 0 && (
        <>
          <h3 className="mt-5 text-sm font-semibold">Took payment, delivered nothing</h3>
          <ul className="mt-2 divide-y rounded-lg border text-sm" data-testid="undelivered">
            {undelivered.map((u) => (
              <li key={u.id} className="flex flex-col gap-1 p-3">
                <Link href={`/marketplace/${u.slug}`} className="font-medium underline-offset-4 hover:underline">
                  {u.name}
                </Link>
                <span className="text-muted-foreground">{toTestPurchaseView(u.purchase)?.summary}</span>
                {u.purchase.note && (
                  <span className="text-xs break-words text-muted-foreground">{u.purchase.note}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
