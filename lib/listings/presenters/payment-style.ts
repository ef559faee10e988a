// How a paid listing is paid, as its latest check read it: the one answer every surface gives (the detail page's
// "Payment:" line, `paymentStyle` in the JSON API, server.json's `_meta` and the MCP tools' answers).
import {
  PAID_STYLE_NAMES,
  PRICE_LISTING_TOOLS,
  type PaidStyle,
  type PricedItem,
  type ProbedTool,
} from "@agora-mcp/protocol";

/**
 * The style of the listing's paid items: the first one read from a paid tool that names its style (a server built on
 * Agora's kit sells through price-listing and its x402 tools alike: the tools say the kit), else MonetizedMCP when
 * price-listing priced them; null for a free listing or one not checked yet.
 */
export function paymentStyleOf(probe: { tools: ProbedTool[]; pricedItems: PricedItem[] } | null): PaidStyle | null {
  const paid = (probe?.pricedItems ?? []).filter((item) => item.amount > 0);
  const styled = paid.find((item) => item.style !== undefined)?.style;
  if (styled) return styled;
  const listed = probe?.tools.some((tool) => (PRICE_LISTING_TOOLS as readonly string[]).includes(tool.name)) ?? false;
  return listed && paid.length > 0 ? "monetized-mcp" : null;
}

/** "Payment: Vercel x402-mcp", or null for a listing with no paid style. */
export function paymentStyleLine(style: PaidStyle | null): string | null {
  return style ? `Payment: ${PAID_STYLE_NAMES[style]}` : null;
}

/** The detail page's line for a listing's latest check: "Payment: <style name>", or null when it sells nothing. */
export function paymentLine(probe: { tools: ProbedTool[]; pricedItems: PricedItem[] } | null): string | null {
  return paymentStyleLine(paymentStyleOf(probe));
}
