import { CircleAlert, CircleCheck, CircleX } from "lucide-react";
import { DriftNotes } from "@/components/listings/drift-notes";
import { ToolPayments } from "@/components/listings/tool-payments";
import type { DriftRecord } from "@/lib/listings/model";
import type { ListingCheck } from "@/lib/listings/model";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@/lib/probe/types";
import { formatPrice } from "@/lib/listings/format";
import { priceRows, priceText } from "@/lib/listings/presenters/price-rows";

/**
 * What the last probe found, for a reviewer or the provider: the evidence behind a decision. `approved`: the listing
 * is approved, so a passing check means Verified; before approval it only says what the check found (the badge needs
 * a reviewer's approval too).
 */
export function ProbeEvidence({
  probe,
  drift = [],
  approved = false,
}: {
  probe: ListingCheck | undefined;
  drift?: DriftRecord[];
  approved?: boolean;
}) {
  if (!probe)
    return (
      <p className="text-sm text-muted-foreground">
        Not checked yet. The check runs right after submission; use Re-check to run it now.
      </p>
    );
  const tools = (probe.tools ?? []) as ProbedTool[];
  const items = (probe.pricedItems ?? []) as PricedItem[];
  const methods = (probe.paymentMethods ?? []) as AcceptedPayment[];
  const quirks = (probe.quirks ?? []) as string[];
  return (
    <div className="space-y-3 text-sm" data-testid="probe-evidence">
      <p className="flex flex-wrap items-center gap-2">
        {probe.verifiable ? (
          <CircleCheck className="size-4 text-emerald-600" aria-hidden="true" />
        ) : probe.reachable ? (
          <CircleAlert className="size-4 text-amber-600" aria-hidden="true" />
        ) : (
          <CircleX className="size-4 text-destructive" aria-hidden="true" />
        )}
        <strong>
          {probe.verifiable
            ? approved
              ? "MonetizedMCP server verified"
              : "MonetizedMCP server found, verified once approved"
            : probe.reachable
              ? "Reachable MCP server, not verifiable"
              : "Not reachable"}
        </strong>
        <span className="text-muted-foreground">
          checked {probe.checkedAt.toISOString().slice(0, 16).replace("T", " ")} UTC
          {probe.latencyMs != null ? ` · ${probe.latencyMs} ms` : ""}
        </span>
      </p>
      {probe.error && <p className="rounded bg-destructive/5 px-2 py-1 text-destructive">{probe.error}</p>}
      {probe.serverName && (
        <p className="text-muted-foreground">
          {probe.serverName} {probe.serverVersion} · protocol {probe.protocolVersion}
        </p>
      )}
      {tools.length > 0 && (
        <p>
          <span className="font-medium">Tools:</span> {tools.map((t) => t.name).join(", ")}
        </p>
      )}
      <ToolPayments tools={tools} />
      {items.length > 0 && (
        // Each purchasable thing once (an item and its own x402 tool are one), as the detail page lists them.
        <ul className="list-disc pl-5">
          {priceRows({ tools, pricedItems: items, paymentMethods: methods })
            .filter((row) => row.amount !== null)
            .map((row) => (
              <li key={row.key}>
                {row.name}: {priceText(row, formatPrice)}
                {row.alsoX402Tool && (
                  <span className="text-muted-foreground"> (also the x402 tool {row.alsoX402Tool})</span>
                )}
              </li>
            ))}
        </ul>
      )}
      {methods.length > 0 && (
        <p className="break-all">
          <span className="font-medium">Pays to:</span>{" "}
          {methods.map((m) => `${m.paymentMethod} ${m.walletAddress}`).join("; ")}
        </p>
      )}
      {quirks.length > 0 && <p className="text-amber-700">Oddities: {quirks.join("; ")}</p>}
      <DriftNotes drift={drift} />
    </div>
  );
}
