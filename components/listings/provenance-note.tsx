// Where an imported listing came from (its entry upstream), and the notice a deprecated upstream entry carries.
import { TriangleAlert } from "lucide-react";
import type { ProvenanceColumns } from "@/lib/listings/presenters/provenance";

const FROM: Record<string, string> = { "mcp-registry": "From the MCP Registry as", "x402-discovery": "From an x402 discovery list as" };

export function ProvenanceNote({ listing }: { listing: ProvenanceColumns }) {
  const from = FROM[listing.source];
  if (!from || !listing.upstreamName) return null;
  return (
    <p className="mt-1 text-sm text-muted-foreground" data-testid="provenance">
      {from}{" "}
      {listing.upstreamUrl ? (
        <a href={listing.upstreamUrl} target="_blank" rel="noopener noreferrer nofollow" className="break-all text-primary underline-offset-4 hover:underline">
          {listing.upstreamName}
        </a>
      ) : (
        <span className="break-all">{listing.upstreamName}</span>
      )}
    </p>
  );
}

export function DeprecatedNotice({ listing }: { listing: ProvenanceColumns }) {
  if (listing.upstreamStatus !== "deprecated") return null;
  const where = listing.source === "x402-discovery" ? "its discovery list" : "the MCP Registry";
  return (
    <div role="note" data-testid="deprecated-notice" className="mt-6 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <strong>Deprecated upstream.</strong> Its publisher marked this server deprecated in {where}. It is still checked and listed, but may stop working;
        prefer another server for new work.
      </p>
    </div>
  );
}
