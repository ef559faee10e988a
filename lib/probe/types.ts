// What one probe of a listing's MCP server found: the wire shapes it reads live in @agora-mcp/protocol (the packages
// share them), the record it makes in db/probe-result.ts (the database stores it).

export {
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  SUPPORTED_PAYMENT_METHODS,
  type AcceptedPayment,
  type PricedItem,
  type ProbedTool,
} from "@agora-mcp/protocol";
export type { ProbeResult } from "@/db/probe-result";
