// The quote: what the server sells now, read on this very connection, and the price and payee this purchase would
// pay: a price-list item (make-purchase) or a tool paid per call over x402 in any of the field's styles (its unpaid
// call answers a request for payment, as a tool result or a JSON-RPC error 402). Nothing signed, nothing taken: the
// quote is data (a refusal, something free to take, or a priced offer), and the steps after it act on it.
import {
  PAID_STYLE_NAMES,
  buildRequirements,
  formatUsd,
  readPaymentAsk,
  readPaymentAskError,
  usdToUnits,
  type PaidStyle,
  type PaymentAsk,
  type PaymentRequirementsV2,
} from "@agora-mcp/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import {
  findItem,
  missingParams,
  namedPaidTools,
  readPriceList,
  type PriceList,
  type NamedPaidTool,
  type X402Tool,
} from "../price-list.js";
import type { Connection } from "../connections.js";
import { planChannel } from "./channel.js";
import { chooseOffer } from "./offer.js";
import {
  refused,
  type Context,
  type FreeItem,
  type Priced,
  type PricedOffer,
  type PurchaseOutcome,
  type SettlementOrder,
  type ToolOffer,
} from "./types.js";

/**
 * Where the quote leaves the purchase: refused before anything is signed, something free to take, or an offer to
 * pay. `ctx` carries what the quote learnt into the outcome (the item's name, its price).
 */
export type Quoted =
  | { kind: "refused"; outcome: PurchaseOutcome }
  | { kind: "free"; ctx: Context; item: FreeItem }
  | { kind: "priced"; ctx: Context; offer: PricedOffer };

const refuse = (...why: Parameters<typeof refused>): Quoted => ({ kind: "refused", outcome: refused(...why) });

export async function quote(c: Connection, ctx: Context): Promise<Quoted> {
  const { settings } = ctx.deps;
  const priceList = await readPriceList(c, settings.network, namedTools(ctx));
  const item = findItem(priceList, ctx.input.item);
  const x402Tool = item ? undefined : priceList.x402Tools.find((t) => t.name === ctx.input.item.trim());
  if (x402Tool) return quotePaidTool(c, { ...ctx, at: { ...ctx.at, item: x402Tool.name } }, x402Tool);
  if (!item) {
    const known =
      [...priceList.items.map((i) => i.id ?? i.name), ...priceList.x402Tools.map((t) => t.name)].join(", ") || "none";
    return refuse(
      "unknown_item",
      `"${ctx.input.item}" is not sold by ${ctx.server.label} (items: ${known}). Nothing was signed.`,
      ctx.at,
    );
  }
  return quoteItem(c, ctx, priceList, item);
}

/** The tools named as paid from outside their tools/list entries: by the registry's listing, and by the caller. */
function namedTools(ctx: Context): NamedPaidTool[] {
  const named = namedPaidTools(ctx.server.terms);
  const item = ctx.input.item.trim();
  if (ctx.input.paidTool && !named.some((n) => n.name === item))
    named.push({ name: item, ...(ctx.input.paidTool.style ? { style: ctx.input.paidTool.style } : {}) });
  return named;
}

type Item = PriceList["items"][number];

async function quoteItem(c: Connection, ctx: Context, priceList: PriceList, item: Item): Promise<Quoted> {
  const { settings } = ctx.deps;
  const params = ctx.input.params ?? {};
  const itemKey = item.id ?? item.name;
  const at = { ...ctx.at, item: itemKey };
  const units = BigInt(item.units ?? usdToUnits(item.amount).toString());
  const priceUsd = formatUsd(units);
  const missing = missingParams(item, params);
  if (missing.length) {
    const hints = missing.map((n) => `${n} (${item.params?.[n] ?? "required"})`).join(", ");
    return refuse("missing_params", `Missing parameters for "${item.name}": ${hints}. Nothing was signed.`, {
      ...at,
      priceUsd,
      missingParams: missing,
    });
  }
  const viaX402 = preferredX402Tool(ctx, priceList, item);
  if (viaX402) return quotePaidTool(c, { ...ctx, at }, viaX402, { itemKey, name: item.name });
  if (!priceList.hasMakePurchase)
    return refuse("cannot_pay", `${ctx.server.label} has no make-purchase tool. Nothing was signed.`, at);
  if (units === 0n)
    return {
      kind: "free",
      ctx: { ...ctx, at: { ...at, priceUsd } },
      item: { via: "make-purchase", itemKey, name: item.name },
    };
  if (item.paymentMethod && item.paymentMethod !== settings.network.paymentMethod) {
    return refuse(
      "cannot_pay",
      `"${item.name}" is paid in ${item.paymentMethod}; this wallet pays ${settings.network.paymentMethod}. Nothing was signed.`,
      { ...at, priceUsd },
    );
  }
  if (!priceList.payTo)
    return refuse(
      "cannot_pay",
      `${ctx.server.label} names no wallet for ${settings.network.paymentMethod} in payment-methods. Nothing was signed.`,
      { ...at, priceUsd },
    );
  const requirements = buildRequirements({
    network: settings.network,
    units,
    payTo: priceList.payTo,
    resource: { url: `${ctx.server.url}#${itemKey}`, description: item.name },
  }).v1;
  const offer: PricedOffer = {
    itemKey,
    name: item.name,
    units,
    payTo: priceList.payTo,
    order: "before",
    via: "make-purchase",
    requirements,
  };
  return { kind: "priced", ctx: { ...ctx, at }, offer };
}

/**
 * The item's own x402 tool, when the server sells it both ways and the wallet can buy it there: the x402 binding
 * settles only after the tool succeeded, make-purchase before it runs, so the wallet prefers x402. Not for an
 * asynchronous item (its job is collected through make-purchase's ticket), nor when a parameter is not a string
 * (the kit's x402 tool takes strings; make-purchase writes other values as JSON).
 */
function preferredX402Tool(ctx: Context, priceList: PriceList, item: Item): X402Tool | undefined {
  if (!item.x402Tool || item.async || item.units === "0") return undefined;
  if (Object.values(ctx.input.params ?? {}).some((v) => typeof v !== "string")) return undefined;
  return priceList.x402Tools.find((t) => t.name === item.x402Tool);
}

/**
 * When a paid tool takes the payment, by its style's documented order: x402's MCP transport, Cloudflare's and Vercel's
 * settle only after the tool succeeded; Agora's kit does when its price hint says so (older kits settled first); the
 * others do not say.
 */
function settlementOrder(style: PaidStyle, tool: X402Tool): SettlementOrder {
  if (style === "agora-kit" || tool.reason === "kit-meta") return tool.settlesAfterSuccess ? "after-success" : "before";
  if (style === "x402-mcp" || style === "cloudflare-agents" || style === "vercel-x402-mcp") return "after-success";
  return style === "monetized-mcp" ? "before" : "unknown";
}

export type Unpaid = { ask: PaymentAsk } | { answered: CallToolResult };

/** The unpaid call: a request for payment (a tool result, or x402's JSON-RPC error 402), or the tool's own answer. */
export async function callUnpaid(c: Connection, ctx: Context, tool: X402Tool): Promise<Unpaid> {
  let answered: CallToolResult;
  try {
    answered = await c.call(tool.name, ctx.input.params ?? {});
  } catch (error) {
    const ask = readPaymentAskError(error);
    if (ask) return { ask };
    throw error;
  }
  const ask = readPaymentAsk(answered, tool.style);
  return ask ? { ask } : { answered };
}

/**
 * A tool paid per call: its unpaid call answers what it asks, in its style; the wallet chooses the offer it can pay
 * on its network and asset. A tool that answers without asking for payment has run: free, nothing to sign.
 */
async function quotePaidTool(
  c: Connection,
  ctx: Context,
  tool: X402Tool,
  asItem?: { itemKey: string; name: string },
): Promise<Quoted> {
  const { settings } = ctx.deps;
  const label = ctx.server.label;
  const unpaid = await callUnpaid(c, ctx, tool);
  if ("answered" in unpaid)
    return { kind: "free", ctx, item: { via: "tool", tool: tool.name, answered: unpaid.answered } };
  const { ask } = unpaid;
  const how = `${PAID_STYLE_NAMES[ask.style]}, x402 version ${ask.required.x402Version}`;
  const choice = chooseOffer(ask, settings.network);
  if (!choice.ok) {
    const asked = ask.required.error ? ` ("${ask.required.error.slice(0, 200)}")` : "";
    return refuse(
      "cannot_pay",
      `${label}'s tool ${tool.name} asks for payment${asked} (${how}), but no offer is one this wallet can pay on ${settings.network.label}: ${choice.refused.join("; ")}. Nothing was signed.`,
      ctx.at,
    );
  }
  const { offer, raw } = choice;
  const priced: Priced = {
    itemKey: asItem?.itemKey ?? tool.name,
    name: asItem?.name ?? tool.name,
    units: offer.units,
    payTo: offer.requirements.payTo,
    order: settlementOrder(ask.style, tool),
  };
  const paid: ToolOffer = { tool: tool.name, ask, raw };
  if (offer.version === 1)
    return { kind: "priced", ctx, offer: { ...priced, ...paid, via: "exact-v1", requirements: offer.requirements } };
  const { requirements } = offer;
  if (requirements.scheme === "exact")
    return { kind: "priced", ctx, offer: { ...priced, ...paid, via: "exact", requirements } };
  if (requirements.scheme === "upto")
    return { kind: "priced", ctx, offer: { ...priced, ...paid, metered: true, via: "upto", requirements } };
  return quoteChannel(ctx, { ...priced, ...paid }, requirements);
}

/**
 * A tool paid through a payment channel: whether this call opens (or tops up) the channel, and by how much, before
 * anything is asked.
 */
async function quoteChannel(
  ctx: Context,
  priced: Priced & ToolOffer,
  requirements: PaymentRequirementsV2,
): Promise<Quoted> {
  const { settings } = ctx.deps;
  const label = ctx.server.label;
  // A channel's running total lives beside the wallet file: a buyer without one (the registry's test purchases) would
  // leave each deposit behind in a channel it cannot find again.
  if (!settings.walletFile) {
    return refuse(
      "cannot_pay",
      `${label}'s tool ${priced.tool} is paid through a payment channel, which this buyer cannot keep (it has no wallet file to hold the channel's state). Nothing was signed.`,
      ctx.at,
    );
  }
  const plan = await planChannel(ctx.deps, requirements, priced.units);
  if (!plan.ok)
    return refuse("policy_rule", `${plan.message} Nothing was signed.`, {
      ...ctx.at,
      priceUsd: formatUsd(priced.units),
      payTo: priced.payTo,
      rule: plan.rule,
    });
  return { kind: "priced", ctx, offer: { ...priced, via: "channel", requirements, channel: plan.terms } };
}
