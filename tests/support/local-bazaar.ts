// A facilitator's Bazaar on loopback for ingestion tests: GET /discovery/resources answers the items it was given,
// as they are (hostile ones too), paged by limit and offset, in the list shape of x402's discovery extension.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type LocalBazaar = { url: string; items: unknown[]; requests: string[]; close: () => Promise<void> };

/** One discovery entry of an MCP tool, as x402's SDKs write it (`extensions.bazaar.info.input.toolName`). */
export function mcpEntry(resource: string, toolName: unknown, more: Record<string, unknown> = {}) {
  return {
    resource,
    type: "mcp",
    x402Version: 2,
    accepts: [],
    lastUpdated: "2026-01-01T00:00:00Z",
    extensions: {
      bazaar: {
        info: { input: { type: "mcp", toolName, transport: "streamable-http", inputSchema: { type: "object" } } },
      },
    },
    ...more,
  };
}

export async function startLocalBazaar(items: unknown[]): Promise<LocalBazaar> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://bazaar.local");
    if (url.pathname !== "/discovery/resources") return void res.writeHead(404).end();
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const body = {
      x402Version: 2,
      items: items.slice(offset, offset + limit),
      pagination: { limit, offset, total: items.length },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    items,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
