// What an imported listing shows of its upstream entry: the same text when it is first listed and on every
// upstream update after (which leaves the fields its owner edited alone: refreshImportedListing).
import type { UpstreamFields } from "@/db/queries/listing-write";

export type UpstreamEntry = { upstreamName: string; title?: string | null; description?: string | null; websiteUrl?: string | null; repositoryUrl?: string | null };

export function importedListingText(entry: UpstreamEntry, source: string = "mcp-registry"): UpstreamFields {
  return {
    name: (entry.title || entry.upstreamName.split("/").pop() || entry.upstreamName).slice(0, 100),
    description: (entry.description || `${entry.upstreamName}, found by ${source === "x402-discovery" ? "x402 discovery" : "the MCP Registry"}.`).slice(0, 1000),
    websiteUrl: entry.websiteUrl ?? entry.repositoryUrl ?? null,
  };
}
