import Link from "next/link";
import { ExternalLink } from "lucide-react";
import { formatUsd } from "@agora-mcp/protocol";
import type { NetworkBalance } from "@/lib/wallet/page-data";

/**
 * The address's USDC on each network the site reads; a chain that did not answer says so, and nothing more. An
 * address with no purchases shows its balance when asked (`showHref`): each reading spends the operator's RPC quota.
 */
export function WalletBalances({ balances, showHref }: { balances: NetworkBalance[]; showHref: string }) {
  if (balances.length === 0) {
    return (
      <p className="mt-3 text-sm text-muted-foreground" data-testid="balance-unavailable">
        Balance unavailable: this site reads no network&apos;s chain.
      </p>
    );
  }
  return (
    <ul className="mt-3 divide-y rounded-lg border" data-testid="balances">
      {balances.map((b) => (
        <li
          key={b.caip2}
          className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
          data-testid="balance"
          data-network={b.caip2}
        >
          <div>
            <p className="text-sm font-medium">
              {b.label}{" "}
              {(b.testnet || b.localRpc) && (
                <span className="ml-1 rounded bg-muted px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                  {b.localRpc ? "local chain" : "test network"}
                </span>
              )}
            </p>
            {b.localRpc && (
              <p className="mt-1 text-xs text-muted-foreground" data-testid="local-chain">
                Read from the local chain at <code className="font-mono">{b.localRpc}</code>, answering as {b.label}:
                its USDC and transactions exist on this machine only (the sandbox funds its buyer wallet).
              </p>
            )}
            <BalanceLine balance={b} showHref={showHref} />
          </div>
          {b.faucetUrl && (
            <a
              href={b.faucetUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-sm font-medium text-primary underline underline-offset-4"
            >
              Get test USDC from the faucet <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

function BalanceLine({ balance: b, showHref }: { balance: NetworkBalance; showHref: string }) {
  if (b.state === "read" && b.units !== null) {
    return (
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid="balance-amount">
        {formatUsd(b.units)} <span className="text-sm font-normal text-muted-foreground">USDC</span>
      </p>
    );
  }
  if (b.state === "on-request") {
    return (
      <p className="mt-1 text-sm text-muted-foreground" data-testid="balance-on-request">
        Not read yet: this address has no purchases recorded.{" "}
        {/* nofollow: a crawler's visit must not spend a chain read. */}
        <Link
          href={showHref}
          rel="nofollow"
          prefetch={false}
          className="font-medium text-primary underline underline-offset-4"
        >
          Show balance
        </Link>
      </p>
    );
  }
  if (b.state === "limited")
    return (
      <p className="mt-1 text-sm text-muted-foreground" data-testid="balance-limited">
        Balance not read: {b.refusal}
      </p>
    );
  return (
    <p className="mt-1 text-sm text-muted-foreground" data-testid="balance-unavailable">
      Balance unavailable: the {b.label} chain did not answer. Try again in a minute.
    </p>
  );
}
