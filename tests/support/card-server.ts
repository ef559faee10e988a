// A real MCP server on loopback that also publishes its own server card (SEP-2127) at one of the addresses in use,
// for the probe's card reading: the card says what the test wants, the server answers what it is.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export type CardPlace = "endpoint" | "well-known-json" | "well-known";
export type CardServer = { url: string; cardRequests: string[]; close: () => Promise<void> };

export const CARD_SERVER_INFO = { name: "carded-weather", version: "2.0.0" } as const;

/**
 * `card`: the JSON the server publishes, or a function of the server's URL giving it (a string is sent as it is, for
 * unreadable cards); none when undefined.
 */
export async function startCardServer(
  options: { card?: unknown; at?: CardPlace; everyPathHtml?: boolean } = {},
): Promise<CardServer> {
  let url = "";
  const cardRequests: string[] = [];
  const paths: Record<CardPlace, string> = {
    endpoint: "/mcp/server-card",
    "well-known-json": "/.well-known/mcp/server-card.json",
    "well-known": "/.well-known/mcp/server-card",
  };
  const cardPath = options.card === undefined ? null : paths[options.at ?? "endpoint"];
  const httpServer = http.createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && path !== "/mcp") {
      cardRequests.push(path);
      if (path === cardPath) {
        const card =
          typeof options.card === "function" ? (options.card as (url: string) => unknown)(url) : options.card;
        const body = typeof card === "string" ? card : JSON.stringify(card);
        return void res.writeHead(200, { "content-type": "application/mcp-server-card+json" }).end(body);
      }
      if (options.everyPathHtml)
        return void res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>Welcome</p>");
      return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    const server = new McpServer(CARD_SERVER_INFO, { capabilities: { tools: {} } });
    server.registerTool("forecast", { description: "Tomorrow's weather." }, async () => ({
      content: [{ type: "text", text: "Sunny." }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", () => r()));
  const { port } = httpServer.address() as AddressInfo;
  url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    cardRequests,
    close: () => new Promise<void>((r) => (httpServer.closeAllConnections(), httpServer.close(() => r()))),
  };
}
