// @agora-mcp/server: the provider kit. Declare items with prices and handlers and a wallet; get an MCP
// server that MonetizedMCP clients and x402 MCP clients can pay: an x402 call settles only after its item succeeded,
// a make-purchase call settles before it delivers (MonetizedMCP's order).
import type http from "node:http";
import type { McpServer } from "@modelcontextprotocol/server";
import { buildTools } from "./tools.js";
import { resolveOptions, type MonetizedServerOptions, type ResolvedOptions } from "./config.js";
import { createRequestHandler, listen, type RunningServer } from "./http.js";
import { JobStore } from "./jobs.js";
import { PaymentGate } from "./payments.js";

export { ConfigError, DEFAULT_FACILITATOR_URL } from "./config.js";
export type {
  ChargedFailure,
  ItemDefinition,
  ItemHandler,
  MonetizedServerOptions,
  ParamsSchema,
  PurchaseContext,
  PurchaseEvent,
  SettlementFailure,
} from "./config.js";
// serveHttp: the same bounded node:http serving for a provider who wraps `handle` (routing, metrics) themselves.
export { MCP_PATH, listen as serveHttp, type RunningServer } from "./http.js";

export type MonetizedServer = {
  /** The settings in force (network, facilitator, items with exact prices). */
  readonly settings: ResolvedOptions;
  /** A fresh MCP server over the shared state, for another transport (stdio, SSE, your own HTTP stack). */
  createMcpServer: () => McpServer;
  /** A node:http handler serving POST /mcp, with DNS-rebinding protection (see dnsRebindingProtection). */
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  /** Listens on host:port (127.0.0.1:8080 by default; port 0 picks a free one). Closing it claims what channels hold. */
  listen: (options?: { port?: number; host?: string }) => Promise<RunningServer>;
  /**
   * Claims the latest voucher of every payment channel now and settles them to the wallet (the kit also does so on its
   * own schedule). Resolves when done; a failed claim is logged and tried again later.
   */
  claimChannels: () => Promise<void>;
};

export function createMonetizedServer(options: MonetizedServerOptions): MonetizedServer {
  const settings = resolveOptions(options);
  const deps = { options: settings, gate: new PaymentGate(settings), jobs: new JobStore() };
  const createMcpServer = () => buildTools(deps);
  const handle = createRequestHandler(createMcpServer, settings.hostCheck);
  const channels = deps.gate.channels;
  const serve = async (at?: { port?: number; host?: string }) => {
    const running = await listen(handle, at);
    return { ...running, close: () => running.close().then(() => channels.shutdown()) };
  };
  return { settings, createMcpServer, handle, listen: serve, claimChannels: () => channels.claim() };
}
