// Where a listing came from, the same on every surface: submitted to Agora, or imported from the official MCP
// Registry or an x402 discovery list, with its name, entry and status upstream. A deprecated upstream entry
// stays listed with a notice; a deleted one is hidden everywhere (lib/ingest).
import { z } from "zod";
import { LISTING_SOURCES } from "@agora-mcp/protocol";
import type { ProvenanceChain, ProvenanceHop } from "@/db/schema";
import type { Listing } from "@/lib/listings/model";
import { SOURCE_NAMES } from "@/lib/listings/source-names";

export type { ProvenanceChain };

export const provenanceSchema = z.object({
  source: z
    .enum(LISTING_SOURCES)
    .describe(
      "Where the listing came from: submitted to Agora, or found in the MCP Registry or an x402 discovery list.",
    ),
  upstream: z
    .object({
      name: z
        .string()
        .describe("The server's name where it was found (the registry name, or the discovery list's service name)."),
      url: z.string().nullable().describe("The upstream entry."),
      status: z
        .enum(["active", "deprecated"])
        .describe("The upstream entry's status; a deprecated server is still listed, with a notice."),
    })
    .nullable()
    .describe("For an imported listing, its entry upstream; null for one submitted to Agora."),
});

export type Provenance = z.infer<typeof provenanceSchema>;

/** The listing's columns its provenance is read from. */
export type ProvenanceColumns = Pick<Listing, "source" | "upstreamName" | "upstreamUrl" | "upstreamStatus">;

export function provenanceFacts(listing: ProvenanceColumns): Provenance {
  const source = listing.source;
  return {
    source,
    upstream:
      source !== "agora" && listing.upstreamName
        ? {
            name: listing.upstreamName,
            url: listing.upstreamUrl,
            status: listing.upstreamStatus === "deprecated" ? "deprecated" : "active",
          }
        : null,
  };
}

/** One line for text answers: "Source: MCP Registry (io.github.x/y), deprecated upstream". */
export function provenanceLine(p: Provenance): string {
  if (!p.upstream) return `Source: ${SOURCE_NAMES[p.source]}`;
  return `Source: ${SOURCE_NAMES[p.source]} (${p.upstream.name})${p.upstream.status === "deprecated" ? " — deprecated upstream: its publisher recommends against new use" : ""}`;
}

/** A registry on a listing's way here, as /v0.1 `_meta` and the detail page name it. */
export type RegistryHop = {
  kind: ProvenanceHop["kind"];
  name: string;
  url: string;
  entryUrl: string | null;
  listingId: string | null;
};

/**
 * Where a listing was first published and every registry it passed through, oldest first (the last is the source
 * Agora read it from). Null origin: submitted here. A listing imported before chains were kept has its direct
 * source alone, from its upstream entry's URL.
 */
export function provenanceChainFacts(
  listing: ProvenanceColumns,
  chain: ProvenanceChain,
): { origin: RegistryHop | null; registries: RegistryHop[] } {
  const hops: RegistryHop[] = chain.map(({ kind, name, url, entryUrl, listingId }) => ({
    kind,
    name,
    url,
    entryUrl,
    listingId: listingId ?? null,
  }));
  if (hops.length === 0 && listing.source !== "agora" && listing.upstreamUrl) {
    const kind = listing.source;
    hops.push({
      kind,
      name: SOURCE_NAMES[kind],
      url: new URL(listing.upstreamUrl).origin,
      entryUrl: listing.upstreamUrl,
      listingId: null,
    });
  }
  return { origin: hops[0] ?? null, registries: hops };
}
