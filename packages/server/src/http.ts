// Serves the provider's MCP server over Streamable HTTP on node:http, stateless: a fresh MCP server per
// request over shared state (payments in flight, jobs), JSON answers, bounded bodies. Both protocol eras, from
// the same server: a 2026-07-28 request (its _meta envelope, no handshake) goes to the SDK v2's per-request
// modern handler, a 2025 client's message (initialize first) to a stateless Streamable HTTP transport.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest, type McpServer } from "@modelcontextprotocol/server";
import { withoutJsonModeWarning } from "@agora-mcp/protocol";
import { rebindingRefusal, type HostCheck } from "./host-check.js";

export const MCP_PATH = "/mcp";
const MAX_BODY_BYTES = 256 * 1024;

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function rpcError(res: http.ServerResponse, status: number, message: string) {
  sendJson(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

/** The 2025 leg: one stateless transport (no session id) for one message or batch, closed with its server. */
async function answerLegacy(
  build: () => McpServer,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: unknown,
): Promise<void> {
  const server = build();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

export function createRequestHandler(build: () => McpServer, hostCheck: HostCheck) {
  // The 2026-07-28 leg makes a server per request from the same factory; 2025 traffic never reaches it.
  const modern = toNodeHandler(
    withoutJsonModeWarning(() =>
      createMcpHandler(build, { legacy: "reject", responseMode: "json", maxRequestBodySize: MAX_BODY_BYTES }),
    ),
  );
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    // Before anything else, even a 404: a rebound page learns nothing about what this server serves.
    const refusal = rebindingRefusal(req, hostCheck);
    if (refusal) return rpcError(res, 403, refusal);
    const url = new URL(req.url ?? "/", "http://provider.local");
    if (url.pathname !== MCP_PATH) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    if (req.method !== "POST") return rpcError(res, 405, "Method not allowed: POST JSON-RPC to this endpoint.");
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES)
      return rpcError(res, 413, "Request body too large.");
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) return rpcError(res, 413, "Request body too large.");
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return rpcError(res, 400, "Parse error: the body is not JSON.");
    }
    if (await isLegacyRequest(await toWebRequest(req, body), body)) return answerLegacy(build, req, res, body);
    await modern(req, res, body);
  };
}

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

export async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  { port = 8080, host = "127.0.0.1" }: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const server = http.createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      console.error("MCP request failed:", error instanceof Error ? error.message : error);
      if (!res.headersSent) rpcError(res, 500, "Internal server error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "localhost" : host;
  return {
    url: `http://${shown}:${actual}${MCP_PATH}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
