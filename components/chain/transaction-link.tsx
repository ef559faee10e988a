import { ExternalLink } from "lucide-react";
import type { TransactionPlace } from "@/lib/chain/reader";

/**
 * A transaction where a person can see it: a link to the public block explorer, or, on a chain on the site's own
 * machine (a sandbox), the words "on the local chain" (no public explorer has it). Nothing for an unknown network.
 */
export function TransactionLink({
  place,
  label = "transaction",
  className,
}: {
  place: TransactionPlace;
  label?: string;
  className?: string;
}) {
  if (place.localChain) {
    return (
      <span data-testid="local-chain-transaction" className={className}>
        transaction on the local chain
      </span>
    );
  }
  if (!place.explorerUrl) return null;
  return (
    <a
      href={place.explorerUrl}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={`inline-flex items-center gap-0.5 underline-offset-4 ${className ?? "text-primary hover:underline"}`}
    >
      {label} <ExternalLink className="size-3" aria-hidden="true" />
    </a>
  );
}
