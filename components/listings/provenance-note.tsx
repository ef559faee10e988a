// Where an imported listing came from (its entry upstream, the registry it was first published in and every one it
// passed through), and the notice a deprecated upstream entry carries.
import { TriangleAlert } from "lucide-react";
import type { ImportSource } from "@agora-mcp/protocol/catalogue";
import {
  provenanceChainFacts,
  type ProvenanceChain,
  type ProvenanceColumns,
  type RegistryHop,
} from "@/lib/listings/presenters/provenance";

const FROM: Record<ImportSource, string> = {
  "mcp-registry": "From the MCP Registry as",
  "x402-discovery": "From an x402 discovery list as",
};

const linkClass = "break-all text-primary underline-offset-4 hover:underline";

function HopLink({ hop }: { hop: RegistryHop }) {
  return (
    <a href={hop.url} target="_blank" rel="noopener noreferrer nofollow" className={linkClass}>
      {hop.name} ({hop.url})
    </a>
  );
}

export function ProvenanceNote({ listing }: { listing: ProvenanceColumns & { provenance?: ProvenanceChain | null } }) {
  const { origin, registries } = provenanceChainFacts(listing, listing.provenance ?? []);
  const direct = registries.at(-1);
  // Another Agora is named as one, never as "the MCP Registry".
  const from =
    direct?.kind === "agora"
      ? `From ${direct.name} at ${new URL(direct.url).host} as`
      : listing.source === "agora"
        ? undefined
        : FROM[listing.source];
  if (!from || !listing.upstreamName) return null;
  const between = registries.slice(1, -1);
  return (
    <>
      <p className="mt-1 text-sm text-muted-foreground" data-testid="provenance">
        {from}{" "}
        {listing.upstreamUrl ? (
          <a href={listing.upstreamUrl} target="_blank" rel="noopener noreferrer nofollow" className={linkClass}>
            {listing.upstreamName}
          </a>
        ) : (
          <span className="break-all">{listing.upstreamName}</span>
        )}
      </p>
      {origin && (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="provenance-origin">
          First published in <HopLink hop={origin} />
          {between.map((hop, i) => (
            <span key={`${hop.url}-${i}`}>
              , then <HopLink hop={hop} />
            </span>
          ))}
          .
        </p>
      )}
    </>
  );
}

export function DeprecatedNotice({ listing }: { listing: ProvenanceColumns }) {
  if (listing.upstreamStatus !== "deprecated") return null;
  const where = listing.source === "x402-discovery" ? "its discovery list" : "the registry it was listed in";
  return (
    <div
      role="note"
      data-testid="deprecated-notice"
      className="mt-6 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <strong>Deprecated upstream.</strong> Its publisher marked this server deprecated in {where}. It is still
        checked and listed, but may stop working; prefer another server for new work.
      </p>
    </div>
  );
}
