// The reference MonetizedMCP server (a real paid server on the provider kit), and broken variants of it
// that the probe's tests point at, on node:http.
//
// On the MCP SDK v2: the reference server and the odd shapes serve both protocol eras (2026-07-28 and 2025),
// `modern-only` only 2026-07-28 (as a server built for the new revision alone would). The SDK v2 has no server
// side for the deprecated HTTP+SSE transport, so `sse-only`, a deliberately obsolete server, keeps the v1 SDK's.
import http from "node:http";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpServer } from "@modelcontextprotocol/server";
import { withoutJsonModeWarning } from "@agora-mcp/protocol";
import { createMonetizedServer, serveHttp, type MonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import { PLACEHOLDER_WALLET, referenceItems } from "./items";
import { buildLegacyServer, type LegacyShape } from "./legacy-shapes";

export type Variant =
  | "reference" // the paid server: MonetizedMCP tools, job-status, an x402-paid tool per paid item (settled after success; make-purchase settles first)
  | "quirky" // `pricing-listing`, one payment-method object, {amount: "0.05", paymentMethod} prices, text-only results
  | "no-pricing" // a working MCP server without the MonetizedMCP tools
  | "sse-only" // the reference tools over the deprecated HTTP+SSE transport only
  | "modern-only" // the reference server speaking MCP 2026-07-28 only: a 2025 client's initialize is refused
  | "not-mcp" // a plain HTML page answering 200 to everything
  | "slow" // accepts connections and never answers
  | "huge" // answers every request with a 2 MB body
  | "redirect-private"; // redirects every request to the cloud metadata address

export const VARIANTS: Variant[] = [
  "reference",
  "quirky",
  "no-pricing",
  "sse-only",
  "modern-only",
  "not-mcp",
  "slow",
  "huge",
  "redirect-private",
];

export type ReferenceServer = { url: string; port: number; close: () => Promise<void> };

/** Counts requests in flight across every server that shares it (tests check bounded concurrency). */
export type ConcurrencyTracker = { active: number; peak: number; total: number };

export type ReferenceServerOptions = {
  port?: number;
  host?: string;
  variant?: Variant;
  tracker?: ConcurrencyTracker;
  /** The wallet payments go to (the placeholder 0x…dEaD by default). */
  walletAddress?: string;
  /** The x402 facilitator that verifies and settles (the public testnet one by default). */
  facilitatorUrl?: string;
  /** base-sepolia (default) or base. */
  network?: string;
  /** Seconds before an asynchronous job is done. */
  jobSeconds?: number;
  /** The server's name in the MCP handshake. */
  name?: string;
  onPurchase?: (event: PurchaseEvent) => void;
  /** Host names it answers to besides loopback's (DNS-rebinding protection; see the kit's allowedHosts). */
  allowedHosts?: string[];
};

const MCP_PATH = "/mcp";

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function methodNotAllowed(res: http.ServerResponse) {
  sendJson(res, 405, { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null });
}

// Stateless Streamable HTTP, the SDK's own serving: a fresh server per POST; 2025 clients too unless modern only.
function streamableHandler(build: () => McpServer, legacy: "stateless" | "reject") {
  const serve = toNodeHandler(withoutJsonModeWarning(() => createMcpHandler(build, { legacy, responseMode: "json" })));
  return (req: http.IncomingMessage, res: http.ServerResponse) =>
    req.method === "POST" ? serve(req, res) : methodNotAllowed(res);
}

function legacySseHandler(build: () => McpServer) {
  const sessions = new Map<string, SSEServerTransport>();
  return async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (req.method === "GET" && url.pathname === MCP_PATH) {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      // The v2 server over the v1 SDK's SSE transport: both speak the same Transport interface.
      await build().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport)
      return transport.handlePostMessage(req, res);
    return methodNotAllowed(res);
  };
}

function huge(res: http.ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  res.on("error", () => {});
  const chunk = `"${"x".repeat(64 * 1024 - 3)}",`;
  res.write("[");
  for (let i = 0; i < 32 && !res.destroyed; i++) res.write(chunk);
  res.end('""]');
}

export function createReferenceKit(options: ReferenceServerOptions = {}): MonetizedServer {
  return createMonetizedServer({
    name: options.name ?? "agora-reference-monetized-server",
    version: "2.0.0",
    walletAddress: options.walletAddress ?? PLACEHOLDER_WALLET,
    facilitatorUrl: options.facilitatorUrl,
    network: options.network,
    items: referenceItems(options.jobSeconds),
    onPurchase: options.onPurchase,
    // Stated rather than left to the default: a paid server on loopback is what DNS rebinding goes after.
    dnsRebindingProtection: "auto",
    allowedHosts: options.allowedHosts,
  });
}

function handlerFor(variant: Variant, options: ReferenceServerOptions) {
  const kit =
    variant === "reference" || variant === "sse-only" || variant === "modern-only" ? createReferenceKit(options) : null;
  const sse = variant === "sse-only" ? legacySseHandler(kit!.createMcpServer) : null;
  const streamable =
    variant === "modern-only"
      ? streamableHandler(kit!.createMcpServer, "reject")
      : streamableHandler(() => buildLegacyServer(variant as LegacyShape, options.walletAddress), "stateless");
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://reference.local");
    switch (variant) {
      case "not-mcp":
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end("<!doctype html><title>Welcome</title><h1>Not an MCP server</h1>");
        return;
      case "slow":
        return; // the request stays open until the client gives up or the server closes
      case "huge":
        return huge(res);
      case "redirect-private":
        res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end();
        return;
      case "sse-only":
        return sse!(req, res, url);
      default:
        if (url.pathname !== MCP_PATH) {
          res.writeHead(404, { "content-type": "text/plain" }).end("Not found: the MCP endpoint is /mcp");
          return;
        }
        if (variant === "reference") return kit!.handle(req, res);
        return streamable(req, res);
    }
  };
}

/** Starts a server (port 0 picks a free one) and resolves once it listens; `url` is its MCP endpoint. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const { port = 8080, host = "127.0.0.1", variant = "reference", tracker } = options;
  const handle = handlerFor(variant, options);
  const counted: typeof handle = tracker
    ? (req, res) => {
        tracker.total++;
        tracker.peak = Math.max(tracker.peak, ++tracker.active);
        res.once("close", () => tracker.active--);
        return handle(req, res);
      }
    : handle;
  return serveHttp(counted, { port, host });
}
