// What one probe of a listing's MCP server found; the types live in @agora-mcp/protocol so the database layer
// and the packages share them.

export {
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  SUPPORTED_PAYMENT_METHODS,
  type AcceptedPayment,
  type PricedItem,
  type ProbedTool,
  type ProbeResult,
} from "@agora-mcp/protocol";
