// The Agora registry, through its own MCP endpoint (`{AGORA_REGISTRY_URL}/mcp`): search with its filters and
// paging, and one listing's MCP URL.
import { textOf, withConnection } from "./connections.js";

export type RegistryServer = {
  id: string;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  price: number | null;
  free: boolean;
  verified: boolean;
  serverUrl: string;
  detailUrl: string;
};

export type SearchInput = { query?: string; category?: string; price?: "all" | "free" | "paid"; sort?: "popular" | "newest" | "name"; limit?: number; cursor?: string };
export type SearchAnswer = { servers: RegistryServer[]; total: number; nextCursor: string | null };

export class RegistryError extends Error {}

/** `{AGORA_REGISTRY_URL}/mcp`; a bare site address (no path) means its API at /api. */
export function registryEndpoint(registryUrl: string): string {
  const url = new URL(registryUrl);
  const base = url.pathname === "/" || url.pathname === "" ? `${url.origin}/api` : registryUrl.replace(/\/+$/, "");
  return `${base}/mcp`;
}

export async function searchRegistry(registryUrl: string, input: SearchInput): Promise<SearchAnswer> {
  return withConnection(registryEndpoint(registryUrl), async (c) => {
    const args = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== ""));
    const result = await c.call("search_servers", args);
    if (result.isError || !result.structuredContent) throw new RegistryError(`The registry refused the search: ${textOf(result).slice(0, 300)}`);
    return result.structuredContent as SearchAnswer;
  });
}

export async function findListing(registryUrl: string, id: string): Promise<RegistryServer> {
  return withConnection(registryEndpoint(registryUrl), async (c) => {
    const result = await c.call("get_server", { id });
    if (result.isError || !result.structuredContent) throw new RegistryError(textOf(result).slice(0, 300) || `No server "${id}" in the registry.`);
    return result.structuredContent as RegistryServer;
  });
}
