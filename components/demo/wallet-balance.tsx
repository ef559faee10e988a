import { Wallet } from "lucide-react";
import { formatUsd } from "@/lib/demo/chat";
import { wallet } from "@/lib/demo/script";
import { cn } from "@/lib/utils";
import type { LastPayment } from "./use-demo-chat";

// Only a change of balance animates, not the first render.
const changed = (balance: number) => balance !== wallet.startingBalance;

/** The balance pill in the chat header; it pops whenever the amount changes. */
export function BalanceBadge({ balance }: { balance: number }) {
  return (
    <p
      data-testid="wallet-balance"
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium whitespace-nowrap tabular-nums transition-colors duration-500",
        balance > 0
          ? "border-emerald-200 bg-emerald-50 text-emerald-800"
          : "border-amber-200 bg-amber-50 text-amber-800",
      )}
    >
      <Wallet className="size-3.5" aria-hidden="true" />
      <span key={balance} className={cn(changed(balance) && "animate-in zoom-in-50 fade-in duration-500")}>
        Balance: {formatUsd(balance)}
      </span>
    </p>
  );
}

/** The sidebar's wallet card: balance, network and the latest payment. */
export function WalletCard({ balance, lastPayment }: { balance: number; lastPayment: LastPayment | null }) {
  return (
    <div className="rounded-xl border bg-background p-3 shadow-xs">
      <p className="inline-flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <Wallet className="size-3.5" aria-hidden="true" /> Demo wallet
      </p>
      <p className="mt-1 flex items-baseline gap-1.5">
        <span
          key={balance}
          className={cn(
            "text-2xl font-semibold tracking-tight tabular-nums",
            changed(balance) && "animate-in fade-in slide-in-from-bottom-1 duration-500",
          )}
        >
          {formatUsd(balance)}
        </span>
        <span className="text-xs text-muted-foreground">USDC · Base Sepolia</span>
      </p>
      {lastPayment && (
        <p className="mt-1 truncate text-xs text-muted-foreground">
          <span className="font-medium text-amber-700 tabular-nums">−{formatUsd(lastPayment.amount)}</span> to{" "}
          {lastPayment.payee} · {lastPayment.timestamp}
        </p>
      )}
    </div>
  );
}
