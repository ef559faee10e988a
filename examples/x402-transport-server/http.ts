// Serves an MCP endpoint (this example's, and the field fixtures' in tests/support/field-servers) over Streamable HTTP at http://127.0.0.1:PORT/mcp, stateless: either an MCP SDK
// server built afresh for each request (the SDK refuses to reuse a stateless transport), or a web handler
// ((Request) => Response, as Vercel's mcp-handler makes) adapted to node:http.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export type Listening = { url: string; close: () => Promise<void> };

const MCP_PATH = "/mcp";

/** Serves `handle` on 127.0.0.1; anything but the MCP path answers 404. */
export async function listen(
  port: number,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  host = "127.0.0.1",
): Promise<Listening> {
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://fixture.local").pathname !== MCP_PATH) return void res.writeHead(404).end();
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${(server.address() as AddressInfo).port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An SDK server per request, as the SDK's stateless examples do: POST only, GET and DELETE answer 405. */
export function sdkHandler(build: () => McpServer | Server) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void Promise.all([transport.close(), server.close()]));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}

/** A web handler on node:http: the request read whole, the response streamed back (it may be an event stream). */
export function webHandler(handle: (request: Request) => Promise<Response>) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await handle(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) res.write(chunk.value);
    res.end();
  };
}
