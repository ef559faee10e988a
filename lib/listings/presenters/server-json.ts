// A listing in the official MCP Registry's shape: server.json (schema 2025-12-11) plus registry metadata.
import { REGISTRY_PAID_TOOLS_META } from "@agora-mcp/protocol";
import type { ListingView } from "@/lib/listings/model";
import { probeFacts, type ProbeFacts } from "@/lib/listings/presenters/facts";
import { isFree } from "@/lib/listings/format";
import { reputationSummary } from "@/lib/listings/presenters/reputation";
import type { RegistryFacts, RegistryStatus } from "@/lib/listings/registry-view";
import { site, siteUrl } from "@/lib/site";
import { provenanceChainFacts, provenanceFacts } from "./provenance";
import { detailUrl, registryNameOf, serverCardUrl } from "./server-details";

const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
const OFFICIAL_META_KEY = "io.modelcontextprotocol.registry/official";
export const AGORA_META_KEY = `${site.registryNamespace}/listing`;
// Agora keeps one version per listing; a change shows in updatedAt, not in a new version.
export const SERVER_VERSION = "1.0.0";
// server.schema.json caps description and title at 100 characters.
const TEXT_MAX = 100;
// The official registry keeps publisher metadata under 4 KB; past that, the long lists give way to a pointer.
export const META_MAX_BYTES = 4096;

type ServerJson = {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl: string;
  repository?: Record<string, unknown>;
  packages?: unknown[];
  remotes: { type: "streamable-http"; url: string }[];
  _meta: Record<string, unknown>;
};

type OfficialMeta = {
  status: RegistryStatus;
  statusChangedAt: string;
  publishedAt: string;
  updatedAt: string;
  isLatest: boolean;
};

export type ServerResponse = {
  server: ServerJson;
  _meta: { [OFFICIAL_META_KEY]: OfficialMeta };
};

/** Cuts text to `max` code points (as JSON Schema counts them), at a word break when one is near, with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text.trim().replace(/\s+/g, " "));
  if (chars.length <= max) return chars.join("");
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space >= max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, "")}…`;
}

/** The slug a registry name points at, or null when the name is not in Agora's namespace. */
export function slugFromRegistryName(name: string): string | null {
  const prefix = `${site.registryNamespace}/`;
  if (!name.startsWith(prefix)) return null;
  const slug = name.slice(prefix.length);
  return /^[a-z0-9][a-z0-9-]*$/.test(slug) ? slug : null;
}

/** Agora's listing metadata with the probe's facts, shortened to the official registry's budget when it must be. */
function listingMeta(listing: ListingView, registry: RegistryFacts) {
  const facts: ProbeFacts & { truncated?: true } = probeFacts(listing);
  const meta = {
    id: listing.id,
    slug: listing.slug,
    detailUrl: detailUrl(listing.slug),
    serverCardUrl: serverCardUrl(listing.slug),
    description: listing.description,
    categories: listing.categories,
    price: listing.price,
    free: isFree(listing.price),
    currency: "USD",
    verified: listing.verified,
    createdAt: listing.createdAt,
    // An imported listing's entry upstream (its name there is server.name, kept as the registry asks), where it was
    // first published and every registry it came through; and this registry's own name, so a second Agora reading
    // this one names it as an Agora (lib/ingest/provenance.ts).
    ...provenanceFacts(listing),
    ...provenanceChainFacts(listing, registry.provenance),
    registry: { name: site.name, url: siteUrl() },
    ...facts,
    buyerReviews: reputationSummary(listing),
  };
  // The feedback records give way first: the summary keeps a pointer to all of them.
  if (Buffer.byteLength(JSON.stringify(meta)) > META_MAX_BYTES)
    meta.buyerReviews = reputationSummary(listing, { withRecords: false });
  // Then the tools' and items' descriptions (the detail page has them), keeping every name and price.
  if (Buffer.byteLength(JSON.stringify(meta)) > META_MAX_BYTES) {
    meta.tools = meta.tools.map((tool) => ({ ...tool, description: null }));
    meta.pricedItems = meta.pricedItems.map((item) => ({ ...item, description: null }));
    meta.truncated = true;
  }
  for (const list of ["tools", "pricedItems"] as const) {
    if (Buffer.byteLength(JSON.stringify(meta)) <= META_MAX_BYTES) break;
    meta[list] = [];
    meta.truncated = true;
  }
  return meta;
}

/**
 * The tools the latest check read a per-call price from, under the key registries name paid tools with: another
 * Agora ingesting this one calls them unpaid to read their price, which a server paid through x402's MCP transport
 * never shows in tools/list.
 */
function paidToolsMeta(listing: ListingView): Record<string, string[]> {
  const names = (listing.probe?.pricedItems ?? []).flatMap((i) =>
    i.style && i.style !== "monetized-mcp" && i.toolName ? [i.toolName] : [],
  );
  return names.length ? { [REGISTRY_PAID_TOOLS_META]: [...new Set(names)] } : {};
}

/** Registry facts for a listing read without them (a listing approved now, as every surface but /v0.1 sees it). */
function currentRegistryFacts(listing: ListingView): RegistryFacts {
  return {
    status: listing.upstreamStatus === "deprecated" ? "deprecated" : "active",
    statusChangedAt: listing.updatedAt,
    publishedAt: listing.createdAt,
    upstreamServer: null,
    provenance: [],
  };
}

/** One version of a listing: its own, or one its upstream published earlier (GET …/versions lists every one seen). */
type VersionOverride = {
  version: string;
  publishedAt: string | null;
  server: RegistryFacts["upstreamServer"];
  isLatest: boolean;
};

/**
 * An imported entry comes back out as its upstream gave it: version, packages, repository and website, and the
 * upstream's own `_meta` entries under their keys, beside Agora's under its own (which replace any an upstream Agora wrote).
 */
export function toServerResponse(
  listing: ListingView,
  registry: RegistryFacts = currentRegistryFacts(listing),
  at?: VersionOverride,
): ServerResponse {
  const upstream = at?.server ?? registry.upstreamServer;
  const {
    [AGORA_META_KEY]: _upstreamAgora,
    [REGISTRY_PAID_TOOLS_META]: _upstreamTools,
    ...upstreamMeta
  } = upstream?._meta ?? {};
  return {
    server: {
      $schema: SERVER_SCHEMA_URL,
      name: registryNameOf(listing),
      title: truncate(listing.name, TEXT_MAX),
      description: truncate(listing.description, TEXT_MAX),
      version: upstream?.version ?? SERVER_VERSION,
      websiteUrl: upstream
        ? (upstream.websiteUrl ?? detailUrl(listing.slug))
        : (listing.websiteUrl ?? detailUrl(listing.slug)),
      ...(upstream?.repository ? { repository: upstream.repository } : {}),
      ...(upstream?.packages?.length ? { packages: upstream.packages } : {}),
      remotes: [{ type: "streamable-http", url: listing.serverUrl }],
      _meta: { ...upstreamMeta, [AGORA_META_KEY]: listingMeta(listing, registry), ...paidToolsMeta(listing) },
    },
    _meta: {
      [OFFICIAL_META_KEY]: {
        status: registry.status,
        statusChangedAt: registry.statusChangedAt,
        publishedAt: at?.publishedAt ?? registry.publishedAt,
        updatedAt: listing.updatedAt,
        isLatest: at?.isLatest ?? true,
      },
    },
  };
}
