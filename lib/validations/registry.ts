// Inputs of the registry for agents: the MCP tools' arguments and the official-registry API's query.
import { CATALOGUE_SORT_MEANINGS, CATALOGUE_SOURCE_MEANINGS, usdToUnits } from "@agora-mcp/protocol";
import { z } from "zod";
import { boundedText, filtersShape, hasUnstorableText } from "./marketplace";

/** `"a" (what a means), "b" (…)`: the values an agent may pass, each with its meaning. */
const meanings = <V extends string>(of: Record<V, string>) =>
  Object.entries(of)
    .map(([value, meaning]) => `"${value}" (${meaning})`)
    .join(", ");

/** A page size from JSON or a query string ("10" is read as 10). */
const pageLimit = (max: number, fallback: number) =>
  z.coerce
    .number({ message: "limit must be a number." })
    .int("limit must be a whole number.")
    .min(1, "limit must be at least 1.")
    .max(max, `limit must be at most ${max}.`)
    .optional()
    .default(fallback);

const SEARCH_LIMIT_DEFAULT = 10;
const SEARCH_LIMIT_MAX = 50;

/** search_servers: the marketplace's filters under the names agents see, paged by an opaque cursor. */
export const searchServersShape = {
  query: boundedText(200, "query").describe(
    "Words to find in a server's name, description or categories (case-insensitive). Empty: every server.",
  ),
  category: filtersShape.category.describe(
    'Exact category name from list_categories, e.g. "Finance". Empty or "all": every category.',
  ),
  price: filtersShape.price.describe('"free", "paid" or "all" (default).'),
  source: filtersShape.source.describe(`Where the listing came from: ${meanings(CATALOGUE_SOURCE_MEANINGS)}.`),
  sort: filtersShape.sort.describe(`${meanings(CATALOGUE_SORT_MEANINGS)}.`),
  limit: pageLimit(SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT).describe(
    `How many servers to return, 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT}).`,
  ),
  cursor: z
    .string()
    .max(200, "cursor is not valid.")
    .optional()
    .describe("nextCursor from the previous answer, to read the next page with the same filters."),
};

export const getServerShape = {
  id: z
    .string()
    .trim()
    .min(1, "id is required.")
    .max(200, "id is too long.")
    .refine((v) => !hasUnstorableText(v), "id must not contain NUL bytes or broken characters.")
    .describe("The server's id or slug, as returned by search_servers, or its MCP URL."),
};

const REGISTRY_LIMIT_DEFAULT = 30;
const REGISTRY_LIMIT_MAX = 100;

/**
 * GET /v0.1/servers query, as the official MCP Registry names it. Unknown parameters are ignored rather
 * than refused: generic registry clients send options that do not apply here.
 */
export const registryListQuerySchema = z.object({
  cursor: z.string().max(300, "cursor is not valid.").optional(),
  limit: pageLimit(REGISTRY_LIMIT_MAX, REGISTRY_LIMIT_DEFAULT),
  search: boundedText(200, "search"),
  updated_since: z.iso
    .datetime({ offset: true, message: "updated_since must be an RFC 3339 date-time, e.g. 2025-08-07T13:15:04.280Z." })
    .optional(),
  // The OpenAPI's flag: deleted entries are listed too (always so when updated_since is given).
  include_deleted: z
    .enum(["true", "false"], { message: "include_deleted must be true or false." })
    .optional()
    .transform((v) => v === "true"),
  version: z.string().trim().max(255, "version must be at most 255 characters.").optional(),
  source: filtersShape.source,
});

const DISCOVERY_LIMIT_DEFAULT = 20;
const DISCOVERY_LIMIT_MAX = 100;

const token = (name: string, example: string) =>
  z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,32}$/i, `${name} must be a short identifier, e.g. ${example}.`);

const evmAddress = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, `${name} must be an EVM address: 0x and 40 hex digits.`)
    .optional();

// x402 version 1's network names (its NetworkSchema): a bare name outside them names no network at all, so it is
// refused as malformed rather than answered with an empty page. A CAIP-2 id is taken whatever its chain (a chain
// Agora lists nothing on is a filter that matches nothing); an EVM one must carry a chain id.
const X402_V1_NETWORKS: ReadonlySet<string> = new Set([
  "abstract",
  "abstract-testnet",
  "avalanche",
  "avalanche-fuji",
  "base",
  "base-sepolia",
  "educhain",
  "iotex",
  "peaq",
  "polygon",
  "polygon-amoy",
  "sei",
  "sei-testnet",
  "skale-base-sepolia",
  "solana",
  "solana-devnet",
  "story",
]);

function knownNetworkSpelling(network: string): boolean {
  if (!network.includes(":")) return X402_V1_NETWORKS.has(network);
  return !network.startsWith("eip155:") || /^eip155:[1-9]\d{0,18}$/.test(network);
}

/**
 * The filters of x402's Bazaar, one schema for GET /discovery/resources and GET /discovery/search (the spec gives
 * both the same five; Coinbase's Bazaar adds a maximum price and the asset). `network` takes CAIP-2 (eip155:84532)
 * or the version 1 name (base-sepolia); `extensions` may repeat (every one named must be on the entry);
 * `maxUsdPrice` is dollars, at most USDC's 6 decimals, read as exact units.
 */
export const bazaarFiltersShape = {
  type: token("type", "mcp").optional(),
  payTo: evmAddress("payTo"),
  network: z
    .string()
    .trim()
    .regex(
      /^([a-z0-9-]{3,8}:[-_a-zA-Z0-9]{1,32}|[a-z0-9-]{1,32})$/,
      "network must be a CAIP-2 id such as eip155:84532, or a name such as base-sepolia.",
    )
    .refine(knownNetworkSpelling, {
      error: (issue) =>
        `network "${String(issue.input)}" names no network: give a CAIP-2 id such as eip155:84532 (an EVM chain's is eip155:<chain id>) or an x402 version 1 name such as base-sepolia.`,
    })
    .optional(),
  scheme: token("scheme", "exact").optional(),
  extensions: z
    .preprocess(
      (v) => (v === undefined ? undefined : [v].flat()),
      z.array(token("extensions", "bazaar")).max(10, "extensions may be given at most 10 times."),
    )
    .optional(),
  asset: evmAddress("asset"),
  maxUsdPrice: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, "maxUsdPrice must be a price in US dollars with at most 6 decimals, e.g. 0.05.")
    .transform((v) => usdToUnits(v))
    .optional(),
  source: filtersShape.source,
};

/** GET /discovery/resources: the Bazaar's filters, paged by offset. */
export const discoveryQuerySchema = z.object({
  ...bazaarFiltersShape,
  limit: pageLimit(DISCOVERY_LIMIT_MAX, DISCOVERY_LIMIT_DEFAULT),
  offset: z.coerce
    .number({ message: "offset must be a number." })
    .int("offset must be a whole number.")
    .min(0, "offset must be 0 or more.")
    .max(1_000_000, "offset must be at most 1000000.")
    .optional()
    .default(0),
});

export type BazaarFilters = Pick<z.infer<typeof discoveryQuerySchema>, keyof typeof bazaarFiltersShape>;

const DISCOVERY_SEARCH_LIMIT_DEFAULT = 10;
const DISCOVERY_SEARCH_LIMIT_MAX = 50;

/** GET /discovery/search: the Bazaar's search, the marketplace's text under the Bazaar's names, with the same filters. */
export const discoverySearchSchema = z.object({
  query: boundedText(200, "query"),
  ...bazaarFiltersShape,
  cursor: z.string().max(200, "cursor is not valid.").optional(),
  limit: pageLimit(DISCOVERY_SEARCH_LIMIT_MAX, DISCOVERY_SEARCH_LIMIT_DEFAULT),
});
