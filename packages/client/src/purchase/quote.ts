// The quote: what the server sells now, read on this very connection, and the price and payee this purchase would
// pay: a catalogue item (make-purchase) or a tool paid per call over x402 in any of the field's styles (its unpaid
// call answers a request for payment, as a tool result or a JSON-RPC error 402). Nothing signed.
import { randomBytes } from "node:crypto";
import {
  MAKE_PURCHASE_TOOL,
  PAID_STYLE_NAMES,
  formatUsd,
  readPaymentAsk,
  readPaymentAskError,
  readPurchaseResult,
  usdToUnits,
  type PaidStyle,
  type PaymentAsk,
} from "@agora-mcp/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import {
  findItem,
  missingParams,
  namedPaidTools,
  readCatalogue,
  type Catalogue,
  type NamedPaidTool,
  type X402Tool,
} from "../catalogue.js";
import { textOf, type Connection } from "../connections.js";
import { planChannel } from "./channel.js";
import { chooseOffer } from "./offer.js";
import { signMakePurchase, signPaidTool } from "./sign.js";
import {
  refused,
  type Context,
  type Priced,
  type PurchaseOutcome,
  type SettlementOrder,
  type Signer,
} from "./types.js";

/** Either the purchase ends here (an outcome), or it goes on with the quoted terms and how to sign them. */
export type Quoted = { done: PurchaseOutcome } | { ctx: Context; priced: Priced; sign: Signer };

export async function quote(c: Connection, ctx: Context): Promise<Quoted> {
  const { settings } = ctx.deps;
  const catalogue = await readCatalogue(c, settings.network, namedTools(ctx));
  const item = findItem(catalogue, ctx.input.item);
  const x402Tool = item ? undefined : catalogue.x402Tools.find((t) => t.name === ctx.input.item.trim());
  if (x402Tool) return quotePaidTool(c, { ...ctx, at: { ...ctx.at, item: x402Tool.name } }, x402Tool);
  if (!item) {
    const known =
      [...catalogue.items.map((i) => i.id ?? i.name), ...catalogue.x402Tools.map((t) => t.name)].join(", ") || "none";
    return {
      done: refused(
        "unknown_item",
        `"${ctx.input.item}" is not sold by ${ctx.server.label} (items: ${known}). Nothing was signed.`,
        ctx.at,
      ),
    };
  }
  return quoteItem(c, ctx, catalogue, item);
}

/** The tools named as paid from outside their tools/list entries: by the registry's listing, and by the caller. */
function namedTools(ctx: Context): NamedPaidTool[] {
  const named = namedPaidTools(ctx.server.terms);
  const item = ctx.input.item.trim();
  if (ctx.input.paidTool && !named.some((n) => n.name === item))
    named.push({ name: item, ...(ctx.input.paidTool.style ? { style: ctx.input.paidTool.style } : {}) });
  return named;
}

type Item = Catalogue["items"][number];

async function quoteItem(c: Connection, ctx: Context, catalogue: Catalogue, item: Item): Promise<Quoted> {
  const { settings } = ctx.deps;
  const params = ctx.input.params ?? {};
  const itemKey = item.id ?? item.name;
  const at = { ...ctx.at, item: itemKey };
  const units = BigInt(item.units ?? usdToUnits(item.amount).toString());
  const priceUsd = formatUsd(units);
  const missing = missingParams(item, params);
  if (missing.length) {
    const hints = missing.map((n) => `${n} (${item.params?.[n] ?? "required"})`).join(", ");
    return {
      done: refused("missing_params", `Missing parameters for "${item.name}": ${hints}. Nothing was signed.`, {
        ...at,
        priceUsd,
        missingParams: missing,
      }),
    };
  }
  const viaX402 = preferredX402Tool(ctx, catalogue, item);
  if (viaX402) return quotePaidTool(c, { ...ctx, at }, viaX402, { itemKey, name: item.name });
  if (!catalogue.hasMakePurchase)
    return { done: refused("cannot_pay", `${ctx.server.label} has no make-purchase tool. Nothing was signed.`, at) };
  if (units === 0n) return { done: await takeFree(c, { ...ctx, at: { ...at, priceUsd } }, itemKey, item.name) };
  if (item.paymentMethod && item.paymentMethod !== settings.network.paymentMethod) {
    return {
      done: refused(
        "cannot_pay",
        `"${item.name}" is paid in ${item.paymentMethod}; this wallet pays ${settings.network.paymentMethod}. Nothing was signed.`,
        { ...at, priceUsd },
      ),
    };
  }
  if (!catalogue.payTo)
    return {
      done: refused(
        "cannot_pay",
        `${ctx.server.label} names no wallet for ${settings.network.paymentMethod} in payment-methods. Nothing was signed.`,
        { ...at, priceUsd },
      ),
    };
  const next = { ...ctx, at };
  const priced: Priced = { itemKey, name: item.name, units, payTo: catalogue.payTo, order: "before" };
  return { ctx: next, priced, sign: () => signMakePurchase(c, next, priced, item.name) };
}

/**
 * The item's own x402 tool, when the server sells it both ways and the wallet can buy it there: the x402 binding
 * settles only after the tool succeeded, make-purchase before it runs, so the wallet prefers x402. Not for an
 * asynchronous item (its job is collected through make-purchase's ticket), nor when a parameter is not a string
 * (the kit's x402 tool takes strings; make-purchase writes other values as JSON).
 */
function preferredX402Tool(ctx: Context, catalogue: Catalogue, item: Item): X402Tool | undefined {
  if (!item.x402Tool || item.async || item.units === "0") return undefined;
  if (Object.values(ctx.input.params ?? {}).some((v) => typeof v !== "string")) return undefined;
  return catalogue.x402Tools.find((t) => t.name === item.x402Tool);
}

/** A free item: delivered and recorded, nothing signed. */
async function takeFree(c: Connection, ctx: Context, itemKey: string, name: string): Promise<PurchaseOutcome> {
  const { settings, ledger } = ctx.deps;
  const outcome = readPurchaseResult(
    await c.call(MAKE_PURCHASE_TOOL, {
      itemId: itemKey,
      params: ctx.input.params ?? {},
      signedTransaction: "",
      paymentMethod: settings.network.paymentMethod,
    }),
  );
  if (!outcome.ok)
    return {
      status: "failed",
      code: "tool_error_unpaid",
      message: `${ctx.server.label} did not deliver the free item "${name}": ${outcome.reason}`,
      signed: false,
      ...ctx.at,
    };
  await ledger.append({
    id: `att_${randomBytes(8).toString("hex")}`,
    time: new Date().toISOString(),
    server: ctx.server.label,
    serverUrl: ctx.server.url,
    item: itemKey,
    units: "0",
    status: "free",
    orderId: outcome.orderId,
  });
  return {
    status: "free",
    code: "free",
    message: `"${name}" is free: delivered, nothing signed or paid.`,
    signed: false,
    ...ctx.at,
    result: outcome.toolResult,
    orderId: outcome.orderId,
  };
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
 * on its network and asset. A tool that answers without asking for payment has run: reported so, nothing signed.
 */
async function quotePaidTool(
  c: Connection,
  ctx: Context,
  tool: X402Tool,
  asItem?: { itemKey: string; name: string },
): Promise<Quoted> {
  const { settings, ledger } = ctx.deps;
  const label = ctx.server.label;
  const unpaid = await callUnpaid(c, ctx, tool);
  if ("answered" in unpaid) {
    const text = textOf(unpaid.answered).slice(0, 2_000);
    if (unpaid.answered.isError) {
      return {
        done: {
          status: "failed",
          code: "tool_error_unpaid",
          message: `${label}'s tool ${tool.name} answered an error without asking for payment: ${text.slice(0, 300) || "(no text)"}. Nothing was signed or paid.`,
          signed: false,
          ...ctx.at,
        },
      };
    }
    await ledger.append({
      id: `att_${randomBytes(8).toString("hex")}`,
      time: new Date().toISOString(),
      server: label,
      serverUrl: ctx.server.url,
      item: tool.name,
      units: "0",
      status: "free",
      note: "ran without asking for payment",
    });
    return {
      done: {
        status: "free",
        code: "free",
        message: `${label}'s tool ${tool.name} ran without asking for payment: it answered, and nothing was signed or paid.`,
        signed: false,
        ...ctx.at,
        priceUsd: formatUsd(0n),
        result: text,
      },
    };
  }
  const { ask } = unpaid;
  const how = `${PAID_STYLE_NAMES[ask.style]}, x402 version ${ask.required.x402Version}`;
  const choice = chooseOffer(ask, settings.network);
  if (!choice.ok) {
    const asked = ask.required.error ? ` ("${ask.required.error.slice(0, 200)}")` : "";
    return {
      done: refused(
        "cannot_pay",
        `${label}'s tool ${tool.name} asks for payment${asked} (${how}), but no offer is one this wallet can pay on ${settings.network.label}: ${choice.refused.join("; ")}. Nothing was signed.`,
        ctx.at,
      ),
    };
  }
  const { offer } = choice;
  const priced: Priced = {
    itemKey: asItem?.itemKey ?? tool.name,
    name: asItem?.name ?? tool.name,
    units: offer.units,
    payTo: offer.requirements.payTo as `0x${string}`,
    order: settlementOrder(ask.style, tool),
    ...(offer.requirements.scheme === "upto" ? { metered: true } : {}),
  };
  if (offer.version === 2 && offer.requirements.scheme === "batch-settlement") {
    // A channel's running total lives beside the wallet file: a buyer without one (the registry's test purchases) would
    // leave each deposit behind in a channel it cannot find again.
    if (!settings.walletFile) {
      return {
        done: refused(
          "cannot_pay",
          `${label}'s tool ${tool.name} is paid through a payment channel, which this buyer cannot keep (it has no wallet file to hold the channel's state). Nothing was signed.`,
          ctx.at,
        ),
      };
    }
    // A payment channel: whether this call opens (or tops up) the channel, and by how much, before anything is asked.
    const plan = await planChannel(ctx.deps, offer.requirements, offer.units);
    if (!plan.ok)
      return {
        done: refused("policy_rule", `${plan.message} Nothing was signed.`, {
          ...ctx.at,
          priceUsd: formatUsd(offer.units),
          payTo: priced.payTo,
          rule: plan.rule,
        }),
      };
    priced.channel = plan.terms;
  }
  return { ctx, priced, sign: () => signPaidTool(c, ctx, tool.name, ask, choice, priced) };
}
