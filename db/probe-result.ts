// What one check of a listed server found (Agora's probe): stored as a listing_probes row, read by every surface.
// The site's own record, not a wire format (no package reads it); the lowest layer that needs it is the database's.
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";

export type ProbeResult = {
  url: string;
  checkedAt: Date;
  /** The server completed the MCP initialize handshake. */
  reachable: boolean;
  transport: "streamable-http" | "sse" | null;
  protocolVersion: string | null;
  serverName: string | null;
  serverVersion: string | null;
  tools: ProbedTool[];
  pricedItems: PricedItem[];
  paymentMethods: AcceptedPayment[];
  /** price-listing answered with something we could read (an empty catalogue counts: the server is free). */
  pricesRead: boolean;
  /** Time to connect and complete the initialize handshake. */
  latencyMs: number | null;
  /** A fixed sentence for the failure (never the server's own text), its class, and the HTTP status if one. */
  error: string | null;
  errorClass: string | null;
  httpStatus: number | null;
  /** Deviations from the reference shapes that were tolerated, in the order met. */
  quirks: string[];
  /** Cheapest item in USD or USDC; null when nothing is priced (free). */
  lowestPrice: number | null;
  /** Reachable, exposes all three MonetizedMCP tools, and accepts a supported payment method. */
  verifiable: boolean;
};
