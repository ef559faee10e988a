// The facilitator's x402 Bazaar discovery list (GET /discovery/resources?type=&limit=&offset=): the resources
// the sandbox declares (its paid reference servers), paged as the Bazaar extension says. A hosted facilitator
// fills its list from the payments it settles; the sandbox's is what it was told, which is what ingestion tests need.
export type DiscoveryItem = {
  resource: string;
  type: "http" | "mcp";
  x402Version: number;
  accepts: unknown[];
  lastUpdated: string;
  description?: string;
  serviceName?: string;
  extensions?: Record<string, unknown>;
};

export type DiscoveryList = { items: DiscoveryItem[]; add: (item: DiscoveryItem) => void };

export function discoveryList(): DiscoveryList {
  const items: DiscoveryItem[] = [];
  return { items, add: (item) => items.push(item) };
}

const MAX_LIMIT = 100;

/** The answer to one request: 200 with a page, or 400 naming the bad parameter. */
export function discoveryAnswer(list: DiscoveryList, query: URLSearchParams): { status: number; body: unknown } {
  const limit = query.has("limit") ? Number(query.get("limit")) : 20;
  const offset = query.has("offset") ? Number(query.get("offset")) : 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return { status: 400, body: { error: `limit must be a whole number from 1 to ${MAX_LIMIT}` } };
  if (!Number.isInteger(offset) || offset < 0)
    return { status: 400, body: { error: "offset must be a whole number, 0 or more" } };
  const type = query.get("type");
  const matching = list.items.filter((item) => !type || item.type === type);
  return {
    status: 200,
    body: {
      x402Version: 2,
      items: matching.slice(offset, offset + limit),
      pagination: { limit, offset, total: matching.length },
    },
  };
}
