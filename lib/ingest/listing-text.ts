// What an imported listing shows of its upstream entry: the same text when it is first listed and on every
// upstream update after (which leaves the fields its owner edited alone: refreshImportedListing).
import type { ImportSource } from "@agora-mcp/protocol";
import type { UpstreamFields } from "@/db/queries/listing-write";

const FOUND_BY: Record<ImportSource, string> = {
  "mcp-registry": "the MCP Registry",
  "x402-discovery": "x402 discovery",
};

type UpstreamEntry = {
  upstreamName: string;
  title?: string | null;
  description?: string | null;
  websiteUrl?: string | null;
  repositoryUrl?: string | null;
};

export function importedListingText(entry: UpstreamEntry, source: ImportSource = "mcp-registry"): UpstreamFields {
  return {
    name: (entry.title || entry.upstreamName.split("/").pop() || entry.upstreamName).slice(0, 100),
    description: (entry.description || `${entry.upstreamName}, found by ${FOUND_BY[source]}.`).slice(0, 1000),
    websiteUrl: entry.websiteUrl ?? entry.repositoryUrl ?? null,
  };
}
