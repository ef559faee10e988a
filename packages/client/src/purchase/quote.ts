// The quote: what the server sells now, read on this very connection, and the price and payee this purchase would
// pay: a catalogue item (make-purchase) or an x402 tool (its unpaid call answers PaymentRequired). Nothing signed.
import { randomBytes } from "node:crypto";
import { MAKE_PURCHASE_TOOL, formatUsd, readAccepts, readPaymentRequired, readPurchaseResult, sameAddress, usdToUnits, type X402Accept } from "@agora-mcp/protocol";
import { findItem, missingParams, readCatalogue, type Catalogue } from "../catalogue.js";
import { textOf, type Connection } from "../connections.js";
import { signMakePurchase, signX402Tool } from "./sign.js";
import { refused, type Context, type Priced, type PurchaseOutcome, type Signer } from "./types.js";

/** Either the purchase ends here (an outcome), or it goes on with the quoted terms and how to sign them. */
export type Quoted = { done: PurchaseOutcome } | { ctx: Context; priced: Priced; sign: Signer };

export async function quote(c: Connection, ctx: Context): Promise<Quoted> {
  const { settings } = ctx.deps;
  const catalogue = await readCatalogue(c, settings.network);
  const item = findItem(catalogue, ctx.input.item);
  const x402Tool = item ? undefined : catalogue.x402Tools.find((t) => t.name === ctx.input.item.trim());
  if (x402Tool) return quoteX402Tool(c, { ...ctx, at: { ...ctx.at, item: x402Tool.name } }, x402Tool.name);
  if (!item) {
    const known = [...catalogue.items.map((i) => i.id ?? i.name), ...catalogue.x402Tools.map((t) => t.name)].join(", ") || "none";
    return { done: refused(`"${ctx.input.item}" is not sold by ${ctx.server.label} (items: ${known}). Nothing was signed.`, ctx.at) };
  }
  return quoteItem(c, ctx, catalogue, item);
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
    return { done: refused(`Missing parameters for "${item.name}": ${hints}. Nothing was signed.`, { ...at, priceUsd, missingParams: missing }) };
  }
  if (!catalogue.hasMakePurchase) return { done: refused(`${ctx.server.label} has no make-purchase tool. Nothing was signed.`, at) };
  if (units === 0n) return { done: await takeFree(c, { ...ctx, at: { ...at, priceUsd } }, itemKey, item.name) };
  if (item.paymentMethod && item.paymentMethod !== settings.network.paymentMethod) {
    return { done: refused(`"${item.name}" is paid in ${item.paymentMethod}; this wallet pays ${settings.network.paymentMethod}. Nothing was signed.`, { ...at, priceUsd }) };
  }
  if (!catalogue.payTo) return { done: refused(`${ctx.server.label} names no wallet for ${settings.network.paymentMethod} in payment-methods. Nothing was signed.`, { ...at, priceUsd }) };
  const next = { ...ctx, at };
  const priced: Priced = { itemKey, name: item.name, units, payTo: catalogue.payTo };
  return { ctx: next, priced, sign: () => signMakePurchase(c, next, priced, item.name) };
}

/** A free item: delivered and recorded, nothing signed. */
async function takeFree(c: Connection, ctx: Context, itemKey: string, name: string): Promise<PurchaseOutcome> {
  const { settings, ledger } = ctx.deps;
  const outcome = readPurchaseResult(await c.call(MAKE_PURCHASE_TOOL, { itemId: itemKey, params: ctx.input.params ?? {}, signedTransaction: "", paymentMethod: settings.network.paymentMethod }));
  if (!outcome.ok) return { status: "failed", message: `${ctx.server.label} did not deliver the free item "${name}": ${outcome.reason}`, signed: false, ...ctx.at };
  await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: ctx.server.label, serverUrl: ctx.server.url, item: itemKey, units: "0", status: "free", orderId: outcome.orderId });
  return { status: "free", message: `"${name}" is free: delivered, nothing signed or paid.`, signed: false, ...ctx.at, result: outcome.toolResult, orderId: outcome.orderId };
}

/** An item sold through the x402 binding for MCP: the unpaid call answers its PaymentRequired. */
async function quoteX402Tool(c: Connection, ctx: Context, tool: string): Promise<Quoted> {
  const { settings } = ctx.deps;
  const unpaid = await c.call(tool, ctx.input.params ?? {});
  const required = readPaymentRequired(unpaid);
  if (!unpaid.isError || !required) {
    return { done: { status: "failed", message: `${ctx.server.label}'s tool ${tool} answered without asking for payment; nothing was signed.`, signed: false, ...ctx.at, result: textOf(unpaid).slice(0, 2_000) } };
  }
  const onNetwork = (a: X402Accept) =>
    (a.version === 2 ? a.requirements.network === settings.network.caip2 : a.requirements.network === settings.network.v1Network) && sameAddress(a.requirements.asset, settings.network.asset);
  const accept = readAccepts(required).find(onNetwork);
  if (!accept) return { done: refused(`${ctx.server.label}'s tool ${tool} accepts no USDC payment on ${settings.network.label}. Nothing was signed.`, ctx.at) };
  const units = BigInt(accept.version === 2 ? accept.requirements.amount : accept.requirements.maxAmountRequired);
  const payTo = accept.requirements.payTo;
  if (units === 0n || !/^0x[0-9a-fA-F]{40}$/.test(payTo)) return { done: refused(`${ctx.server.label}'s payment terms for ${tool} are not payable. Nothing was signed.`, ctx.at) };
  const priced: Priced = { itemKey: tool, name: tool, units, payTo: payTo as `0x${string}` };
  return { ctx, priced, sign: () => signX402Tool(c, ctx, tool, accept, required.resource) };
}
