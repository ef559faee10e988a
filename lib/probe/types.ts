// What one probe of a listing's MCP server found; stored as a listing_probes row.

/** Payment methods Agora can verify today (spec: only Base Sepolia receipts are supported). */
export const SUPPORTED_PAYMENT_METHODS = ["USDC_BASE_SEPOLIA"] as const;

export const PRICE_LISTING_TOOLS = ["price-listing", "pricing-listing"] as const;
export const PAYMENT_METHODS_TOOLS = ["payment-methods", "payment-method"] as const;
export const MAKE_PURCHASE_TOOL = "make-purchase";

export type ProbedTool = { name: string; description: string | null; inputSchema: unknown };

export type PricedItem = {
  name: string;
  /** The tool the item is bought through, when the server names one. */
  toolName?: string;
  description?: string;
  amount: number;
  currency: string;
  paymentMethod?: string;
};

export type AcceptedPayment = { paymentMethod: string; walletAddress: string };

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
  error: string | null;
  /** Deviations from the reference shapes that were tolerated, in the order met. */
  quirks: string[];
  /** Cheapest item in USD or USDC; null when nothing is priced (free). */
  lowestPrice: number | null;
  /** Reachable, exposes all three MonetizedMCP tools, and accepts a supported payment method. */
  verifiable: boolean;
};
