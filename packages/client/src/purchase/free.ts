// Something free: a price-list item priced at 0, taken through make-purchase with no payment, or a tool whose unpaid
// call answered without asking for payment (it has run already). Delivered and recorded in the ledger; nothing is
// signed, reserved or paid.
import { MAKE_PURCHASE_TOOL, formatUsd, readPurchaseResult } from "@agora-mcp/protocol";
import { textOf, type Connection } from "../connections.js";
import { newAttemptId } from "../ledger.js";
import type { Context, FreeItem, PurchaseOutcome } from "./types.js";

export async function takeFree(c: Connection, ctx: Context, item: FreeItem): Promise<PurchaseOutcome> {
  return item.via === "make-purchase" ? takeFreeItem(c, ctx, item) : ranUnpaid(ctx, item);
}

/** A free price-list item: make-purchase with an empty payment. */
async function takeFreeItem(
  c: Connection,
  ctx: Context,
  { itemKey, name }: Extract<FreeItem, { via: "make-purchase" }>,
): Promise<PurchaseOutcome> {
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
    id: newAttemptId(),
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

/** A tool that answered its unpaid call: its answer, or its error (reported so: nothing was signed or paid). */
async function ranUnpaid(
  ctx: Context,
  { tool, answered }: Extract<FreeItem, { via: "tool" }>,
): Promise<PurchaseOutcome> {
  const label = ctx.server.label;
  const text = textOf(answered).slice(0, 2_000);
  if (answered.isError) {
    return {
      status: "failed",
      code: "tool_error_unpaid",
      message: `${label}'s tool ${tool} answered an error without asking for payment: ${text.slice(0, 300) || "(no text)"}. Nothing was signed or paid.`,
      signed: false,
      ...ctx.at,
    };
  }
  await ctx.deps.ledger.append({
    id: newAttemptId(),
    time: new Date().toISOString(),
    server: label,
    serverUrl: ctx.server.url,
    item: tool,
    units: "0",
    status: "free",
    note: "ran without asking for payment",
  });
  return {
    status: "free",
    code: "free",
    message: `${label}'s tool ${tool} ran without asking for payment: it answered, and nothing was signed or paid.`,
    signed: false,
    ...ctx.at,
    priceUsd: formatUsd(0n),
    result: text,
  };
}
