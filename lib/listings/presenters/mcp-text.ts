// The readable half of each tool answer: what a model or a person reads beside structuredContent.
import { formatPrice } from "@/lib/listings/format";
import { paymentStyleLine } from "./payment-style";
import { salesLine } from "./sales-facts";
import { provenanceLine } from "./provenance";
import type { ServerDetails, ServerSummary } from "./server-details";

function priceLine(s: ServerSummary): string {
  return s.free ? "Free" : `${formatPrice(s.price)} per call (cheapest item, USDC on Base)`;
}

function summaryBlock(s: ServerSummary, index: number): string {
  return [
    `${index}. ${s.name} — ${priceLine(s)}${s.verified ? " · verified" : ""}`,
    `   id: ${s.id} · slug: ${s.slug}${s.lastCheckedAt ? ` · last checked ${s.lastCheckedAt}${s.reachable ? "" : " (not reachable)"}` : " · not checked yet"}`,
    ...(s.testPurchase ? [`   ${s.testPurchase.summary}`] : []),
    `   ${s.description}`,
    `   Categories: ${s.categories.join(", ") || "none"}`,
    `   Sales: ${salesLine(s.sales)}`,
    `   ${provenanceLine(s)}`,
    `   Server: ${s.serverUrl}`,
    `   Details: ${s.detailUrl}`,
  ].join("\n");
}

export function searchText(
  servers: ServerSummary[],
  total: number,
  offset: number,
  nextCursor: string | null,
  capped = false,
): string {
  if (servers.length === 0) {
    return offset > 0
      ? "No more MCP servers: this is past the last page."
      : "No MCP servers match these filters. Try fewer words, or call list_categories.";
  }
  const head = capped
    ? `More than ${total.toLocaleString("en-US")} MCP servers match; showing ${offset + 1}–${offset + servers.length}:`
    : `${total} MCP server${total === 1 ? " matches" : "s match"}; showing ${offset + 1}–${offset + servers.length}:`;
  const body = servers.map((s, i) => summaryBlock(s, offset + i + 1)).join("\n\n");
  const tail = nextCursor
    ? `More results: call search_servers again with the same filters and cursor "${nextCursor}".`
    : "That is the last page.";
  return `${head}\n\n${body}\n\n${tail}\nCall get_server with an id or slug for tools, prices and a client config.`;
}

const driftLabel = { price: "Price changed", wallet: "Payee wallet changed", tools: "Tool set changed" } as const;

function driftLine(d: ServerDetails["drift"][number]): string {
  return `- ${driftLabel[d.kind]} on ${d.detectedAt.slice(0, 10)}: ${d.subject ? `${d.subject} ` : ""}${d.approved} → ${d.found}${d.held ? " (held for review)" : ""}`;
}

export function detailsText(d: ServerDetails): string {
  const tools = d.tools.length
    ? d.tools
        .map(
          (t) =>
            `- ${t.name}: ${t.priceUsd ? formatPrice(t.priceUsd) : "Free"}${t.description ? ` — ${t.description}` : ""}`,
        )
        .join("\n")
    : d.lastVerification
      ? "The latest check read no tools. Ask the server itself (its price-listing tool) for prices."
      : "Not yet verified: Agora has not read this server's price-listing yet. Ask the server itself (its price-listing tool) for per-tool prices.";
  const items = d.pricedItems
    .map((i) => `- ${i.name}: ${formatPrice(i.priceUsd)} ${i.currency} (buy with ${i.toolName})`)
    .join("\n");
  const methods = d.paymentMethods.length
    ? d.paymentMethods.map((m) => `- ${m.id}${m.payTo ? ` → ${m.payTo}` : ""}`).join("\n")
    : d.lastVerification
      ? "The latest check read no payment methods."
      : "Not yet verified: ask the server's payment-methods tool.";
  const uptime =
    d.uptime30d.percent === null
      ? "no checks in 30 days"
      : `${d.uptime30d.percent}% of ${d.uptime30d.checks} checks in 30 days answered`;
  return [
    `${d.name}${d.verified ? " (verified)" : ""}`,
    d.description,
    "",
    `Price: ${priceLine(d)}`,
    ...[paymentStyleLine(d.paymentStyle)].filter((line) => line !== null),
    `Categories: ${d.categories.join(", ") || "none"}`,
    `Server URL (Streamable HTTP): ${d.serverUrl}`,
    `Details: ${d.detailUrl}`,
    ...(d.websiteUrl ? [`Website: ${d.websiteUrl}`] : []),
    `id: ${d.id} · slug: ${d.slug} · registry name: ${d.registryName}`,
    provenanceLine(d),
    "",
    "Tools and prices:",
    tools,
    ...(items ? ["", "Priced items:", items] : []),
    "",
    "Payment methods:",
    methods,
    "",
    `Last verification: ${d.lastVerification ? `${d.lastVerification.status} at ${d.lastVerification.checkedAt}${d.reachable ? "" : " (server not reachable)"}` : "not yet verified"}`,
    ...(d.protocolVersion ? [`MCP revision: ${d.protocolVersion}`] : []),
    ...(d.drift.length ? ["", "Changes since approval:", ...d.drift.map(driftLine)] : []),
    `Sales: ${salesLine(d.sales)}${d.sales.lastSale ? `; last ${d.sales.lastSale.at} ($${d.sales.lastSale.amountUsd}, ${d.sales.lastSale.explorerUrl ?? `${d.sales.lastSale.txHash}${d.sales.lastSale.localChain ? " on the local chain" : ""}`})` : ""}`,
    ...(d.testPurchase
      ? [`${d.testPurchase.summary}${d.testPurchase.transaction ? ` (transaction ${d.testPurchase.transaction})` : ""}`]
      : []),
    `Uptime: ${uptime}${d.uptime30d.medianLatencyMs !== null ? `, median ${d.uptime30d.medianLatencyMs} ms` : ""}`,
    "",
    "Client config (desktop assistant → Settings › Developer › Edit Config):",
    JSON.stringify(d.clientConfig, null, 2),
  ].join("\n");
}

export function categoriesText(categories: { name: string; count: number }[]): string {
  if (categories.length === 0) return "No categories yet: the registry has no approved servers.";
  return `${categories.length} categories (servers in each):\n${categories.map((c) => `- ${c.name} (${c.count})`).join("\n")}`;
}
