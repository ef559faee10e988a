// The chain of registries an entry came through: where it was first published, then every registry that re-published
// it, ending with the source read here. Another Agora says its part of the chain (and its own name) in its
// `_meta` (lib/ingest/agora-meta.ts); any other registry is where the entry was published.
import type { ProvenanceChain } from "@/db/schema";
import type { IngestSource } from "@/lib/config/ingest-sources";
import { upstreamEntryUrl } from "@/db/queries/ingest";
import { MAX_HOPS } from "./agora-meta";
import type { RegistryServer } from "./registry-client";

const REGISTRY_SOURCE_NAME = "MCP Registry";

export function provenanceOf(source: IngestSource, server: Pick<RegistryServer, "name" | "agora">): ProvenanceChain {
  const entryUrl = upstreamEntryUrl(source.key, server.name);
  const url = source.baseUrl.replace(/\/$/, "");
  if (!server.agora) return [{ kind: "mcp-registry", name: REGISTRY_SOURCE_NAME, url, entryUrl, listingId: null }];
  const here = {
    kind: "agora" as const,
    name: server.agora.registryName,
    url,
    entryUrl,
    listingId: server.agora.listingId,
  };
  return [...server.agora.registries.slice(0, MAX_HOPS - 1), here];
}

/** "Agora (http://a) → Agora (http://b) → back here": the loop, for the run's log. */
export function loopLine(chain: ProvenanceChain, ours: Set<string>): string {
  const from = chain.findIndex((hop) => hop.listingId && ours.has(hop.listingId));
  return [...chain.slice(Math.max(0, from)).map((hop) => `${hop.name} (${hop.url})`), "this Agora"].join(" → ");
}
