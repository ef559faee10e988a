import { PackageCheck, PackageX } from "lucide-react";
import { TransactionLink } from "@/components/chain/transaction-link";
import type { TestPurchaseView } from "@/lib/listings/test-purchase-view";

/** The listing's latest test purchase in one line, with its settlement on the block explorer (or on the local chain). */
export function TestPurchaseLine({ testPurchase }: { testPurchase: TestPurchaseView | null }) {
  if (!testPurchase) return null;
  const good = testPurchase.outcome === "delivered";
  const Icon = good ? PackageCheck : PackageX;
  return (
    <p
      data-testid="test-purchase"
      className={`flex gap-2 text-sm ${good ? "text-emerald-800 dark:text-emerald-300" : "text-amber-800 dark:text-amber-300"}`}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-words">
        {testPurchase.summary}
        {(testPurchase.explorerUrl || testPurchase.localChain) && (
          <>
            {" "}
            <TransactionLink place={testPurchase} className="underline underline-offset-2" />
          </>
        )}
      </span>
    </p>
  );
}
