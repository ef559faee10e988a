// What each listing source is called on screen and in text answers (the values are named once, in
// @agora-mcp/protocol's LISTING_SOURCES). No zod here: the marketplace's client components read it.
import { LISTING_SOURCES, type ListingSource } from "@agora-mcp/protocol/catalogue";

export const SOURCE_NAMES: Record<ListingSource, string> = {
  agora: "Agora",
  "mcp-registry": "MCP Registry",
  "x402-discovery": "x402 discovery",
};

/** The name of a source read back as text (the kind in a stored source key); the text itself for one Agora does not know. */
export function sourceName(kind: string): string {
  return (LISTING_SOURCES as readonly string[]).includes(kind) ? SOURCE_NAMES[kind as ListingSource] : kind;
}
