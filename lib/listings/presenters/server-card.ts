// A listing as an MCP Server Card (SEP-2127): the static description a client reads before it connects, published by
// Agora on the server's behalf. The card is cut from the listing's server.json (the SEP keeps one a strict subset of
// the other), so /v0.1 and the card never name a different server, version or endpoint.
import type { ListingView } from "@/lib/listings/model";
import { site, siteUrl } from "@/lib/site";
import { AGORA_META_KEY, toServerResponse } from "./server-json";
import { detailUrl, registryName, serverCardUrl } from "./server-details";

export { serverCardUrl };

export const SERVER_CARD_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
// The card schema's own pattern for `name`: one slash between a reverse-DNS namespace and the server's name.
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

export type ServerCard = {
  $schema: string;
  name: string;
  version: string;
  title: string;
  description: string;
  websiteUrl: string;
  remotes: { type: "streamable-http"; url: string; supportedProtocolVersions?: string[] }[];
  repository?: unknown;
  _meta: Record<string, unknown>;
};

/** The listing's entry in the official-registry API, the fuller description the card points back to. */
export function registryEntryUrl(name: string): string {
  return `${siteUrl()}/v0.1/servers/${encodeURIComponent(name)}/versions/latest`;
}

export function toServerCard(listing: ListingView): ServerCard {
  const { server } = toServerResponse(listing);
  // An imported name the card schema cannot carry (the registry's own pattern is the same, so this is a guard) falls
  // back to the name in Agora's namespace, which always fits.
  const name = CARD_NAME.test(server.name) ? server.name : registryName(listing.slug);
  // The revision the latest check spoke, when it reached the server: what a client will meet.
  const spoken = listing.probe?.reachable ? listing.probe.protocolVersion : null;
  const repository = (server as { repository?: unknown }).repository;
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name,
    version: server.version,
    title: server.title,
    description: server.description,
    websiteUrl: server.websiteUrl,
    remotes: [
      { type: "streamable-http", url: listing.serverUrl, ...(spoken ? { supportedProtocolVersions: [spoken] } : {}) },
    ],
    ...(repository ? { repository } : {}),
    _meta: {
      [AGORA_META_KEY]: {
        publisher: site.name,
        detailUrl: detailUrl(listing.slug),
        registryEntryUrl: registryEntryUrl(server.name),
        categories: listing.categories,
        price: listing.price,
        currency: "USD",
        verified: listing.verified,
        lastCheckedAt: listing.probe?.checkedAt ?? null,
        updatedAt: listing.updatedAt,
      },
    },
  };
}

type CatalogEntry = { slug: string; name: string };

/**
 * Every published card as an AI Catalog (the index SEP-2127's discovery points clients at): one entry per listing,
 * named `urn:air:{publisher}:mcp:{slug}`, with the card's URL. The card itself carries the title and description.
 */
export function serverCardCatalog(entries: CatalogEntry[]) {
  const publisher = new URL(siteUrl()).hostname;
  return {
    specVersion: "1.0",
    publisher: { name: site.name, url: siteUrl() },
    entries: entries.map((e) => ({
      identifier: `urn:air:${publisher}:mcp:${e.slug}`,
      type: SERVER_CARD_MEDIA_TYPE,
      url: serverCardUrl(e.slug),
      name: e.name,
    })),
  };
}
