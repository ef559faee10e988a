// The MCP tools a provider's server exposes: MonetizedMCP's price-listing, payment-methods and make-purchase
// (wire-compatible with servers built on the MonetizedMCP SDK), job-status for asynchronous items, and one
// tool per item sold through the standard x402 binding for MCP. Both ways of buying run one pipeline (sale.ts);
// each tool here reads its protocol's request and words the pipeline's answer in that protocol.
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  JOB_STATUS_TOOL,
  MAKE_PURCHASE_TOOL,
  X402_PAYMENT_META,
  X402_PAYMENT_RESPONSE_META,
  formatUsd,
  jobStatusArgs,
  makePurchaseArgs,
  priceListingArgs,
  unitsToNumber,
} from "@agora-mcp/protocol";
import type { PaymentRequired } from "@x402/core/types";
import type { SaleItem, ResolvedOptions } from "./config.js";
import type { JobStore } from "./jobs.js";
import type { PaymentGate } from "./payments.js";
import type { Refused } from "./verdicts.js";
import { isRefundRequest, type ChannelRefund } from "./channels.js";
import { createSeller, NOT_CHARGED, type SaleResult, type Seller } from "./sale.js";

const MAX_PARAM_CHARS = 4_000;

function json(value: unknown): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }] };
  if (value && typeof value === "object" && !Array.isArray(value))
    result.structuredContent = value as Record<string, unknown>;
  return result;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

type ReadParams = { params: Record<string, string> } | { missing: string[]; tooLong?: string; invalid?: string };

/** The declared parameters as strings, or what is wrong with them (checked before any payment). Undeclared parameters are dropped. */
function readParams(item: SaleItem, given: Record<string, unknown> | undefined): ReadParams {
  const params: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of Object.keys(item.params)) {
    const raw = given?.[name];
    const value = raw === undefined || raw === null ? "" : typeof raw === "string" ? raw : JSON.stringify(raw);
    if (value.trim() === "") missing.push(name);
    else if (value.length > MAX_PARAM_CHARS) return { missing: [], tooLong: name };
    else params[name] = value;
  }
  if (missing.length) return { missing };
  const checked = item.paramsSchema?.safeParse(params);
  if (checked && !checked.success) {
    const issues = checked.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join(".") || "params"}: ${i.message}`);
    return { missing: [], invalid: issues.join("; ").slice(0, 500) || "they do not match the item's schema" };
  }
  return { params };
}

function missingMessage(item: SaleItem, read: Exclude<ReadParams, { params: Record<string, string> }>): string {
  if (read.tooLong)
    return `Parameter "${read.tooLong}" is longer than ${MAX_PARAM_CHARS} characters; nothing was charged.`;
  if (read.invalid) return `Invalid parameters for "${item.name}": ${read.invalid}. Nothing was charged.`;
  const hints = read.missing.map((n) => `${n} (${item.params[n]})`).join(", ");
  return `Missing parameters for "${item.name}": ${hints}. Nothing was charged.`;
}

export type ToolDeps = { options: ResolvedOptions; gate: PaymentGate; jobs: JobStore };

type Tools = { server: McpServer; options: ResolvedOptions; seller: Seller };

export function buildTools({ options, gate, jobs }: ToolDeps): McpServer {
  const tools: Tools = {
    server: new McpServer({ name: options.name, version: options.version }),
    options,
    seller: createSeller({ options, gate, jobs }),
  };
  registerPriceListing(tools);
  registerPaymentMethods(tools);
  registerMakePurchase(tools);
  if (options.items.some((i) => i.async)) registerJobStatus(tools, jobs);
  for (const item of options.items.filter((i) => i.x402Tool)) registerX402Tool(tools, gate, item);
  // The tool list is fixed for the server's life, so it never sends notifications/tools/list_changed: say so
  // (registerTool advertises listChanged: true by default).
  tools.server.server.registerCapabilities({ tools: { listChanged: false } });
  return tools.server;
}

function registerPriceListing({ server, options: { items, network } }: Tools): void {
  server.registerTool(
    "price-listing",
    {
      description: "Lists what this server sells: each item's id, price per call in USDC, and the parameters it needs.",
      inputSchema: z.object(priceListingArgs),
    },
    async ({ searchQuery }) => {
      const q = searchQuery?.trim().toLowerCase();
      const matching = q ? items.filter((i) => `${i.id} ${i.name} ${i.description}`.toLowerCase().includes(q)) : items;
      return json({
        items: matching.map((i) => ({
          id: i.id,
          name: i.name,
          description: i.description,
          price: { amount: unitsToNumber(i.units), currency: "USDC", paymentMethod: network.paymentMethod },
          params: i.params,
          ...(i.async ? { async: true, checkAfterSeconds: i.async.checkAfterSeconds } : {}),
          // Metered: the price is the most a call may cost, sold through x402Tool only (x402's upto scheme).
          ...(i.metered ? { metered: true } : {}),
          // Channel: paid by vouchers on a payment channel (x402's batch-settlement), through x402Tool only.
          ...(i.channel ? { channel: true } : {}),
          // The item's own tool under the x402 binding for MCP; MonetizedMCP clients ignore the field.
          ...(i.x402Tool ? { x402Tool: i.x402Tool } : {}),
        })),
      });
    },
  );
}

function registerPaymentMethods({ server, options }: Tools): void {
  server.registerTool(
    "payment-methods",
    { description: "The payment methods this server accepts and the wallet each pays into." },
    async () => {
      const methods = [{ paymentMethod: options.network.paymentMethod, walletAddress: options.walletAddress }];
      return { content: [{ type: "text", text: JSON.stringify(methods) }] };
    },
  );
}

function registerMakePurchase({ server, options, seller }: Tools): void {
  const { network, items } = options;
  const findItem = (id: string) => items.find((i) => i.id === id) ?? items.find((i) => i.name === id);
  server.registerTool(
    MAKE_PURCHASE_TOOL,
    {
      description:
        "Buys one call of an item from price-listing. signedTransaction is an x402 exact payment (base64) for the item's price to this server's wallet; free items need none. Payment is taken before the item runs: it is delivered only after the payment has settled on-chain (an item's own x402 tool, where listed, charges only if the item succeeds).",
      inputSchema: z.object(makePurchaseArgs),
    },
    async ({ itemId, params: given, signedTransaction, paymentMethod }) => {
      const item = findItem(itemId);
      if (!item)
        return failure(
          `Unknown item "${itemId.slice(0, 100)}": call price-listing for what this server sells. Nothing was charged.`,
        );
      if (item.channel) {
        return failure(
          `"${item.name}" is sold through payment channels (${formatUsd(item.units)} a call): buy it through its own tool ${item.x402Tool}, paid over x402 (batch-settlement). Nothing was charged.`,
        );
      }
      if (item.metered) {
        return failure(
          `"${item.name}" is metered (up to ${formatUsd(item.units)} a call): buy it through its own tool ${item.x402Tool}, paid over x402, which charges only what the call used. Nothing was charged.`,
        );
      }
      const read = readParams(item, given);
      if (!("params" in read)) return failure(missingMessage(item, read));
      if (item.units > 0n && paymentMethod.toUpperCase() !== network.paymentMethod) {
        return failure(
          `This server is paid in ${network.paymentMethod}, not ${paymentMethod.slice(0, 40)}. Nothing was charged.`,
        );
      }
      if (item.units > 0n && !signedTransaction.trim()) {
        return failure(
          `Payment required: "${item.name}" costs ${formatUsd(item.units)} (USDC on ${network.label}) to ${options.walletAddress}.`,
        );
      }
      const sale = await seller.sell(item, read.params, item.units === 0n ? null : signedTransaction, "settle-first");
      return purchaseAnswer(item, read.params, paymentMethod, network.caip2, sale);
    },
  );
}

/** make-purchase's answer: MonetizedMCP's fields, the job ticket or the item's output as `toolResult`. */
function purchaseAnswer(
  item: SaleItem,
  params: Record<string, string>,
  paymentMethod: string,
  caip2: string,
  sale: SaleResult,
): CallToolResult {
  if (!sale.ok) return failure(`${sale.reason} Nothing was delivered.`);
  const { orderId, paid, delivery } = sale;
  const base = {
    purchasableItemId: item.id,
    makePurchaseRequest: { itemId: item.id, params, paymentMethod },
    orderId,
    amount: item.units.toString(),
    ...(paid ? { transaction: paid.transaction, network: caip2, payer: paid.payer } : {}),
  };
  if (delivery.status === "pending") {
    const toolResult = `Paid. "${item.name}" is being prepared: call ${JOB_STATUS_TOOL} with jobId ${delivery.jobId} in about ${delivery.checkAfterSeconds} seconds.`;
    return json({
      ...base,
      status: "pending",
      jobId: delivery.jobId,
      checkAfterSeconds: delivery.checkAfterSeconds,
      toolResult,
    });
  }
  if (delivery.status === "delivered")
    return json({ ...base, status: "delivered", toolResult: asText(delivery.output) });
  // A failure after settlement: "failed, charged", with the order id the seller's onChargedFailure hook heard.
  const settled = paid
    ? ` The payment settled (transaction ${paid.transaction}); quote order ${orderId} to the provider.`
    : "";
  return {
    ...failure(`"${item.name}" failed: ${delivery.why}.${settled}`),
    structuredContent: { ...base, status: "failed", charged: delivery.charged },
  };
}

function registerJobStatus({ server }: Tools, jobs: JobStore): void {
  server.registerTool(
    JOB_STATUS_TOOL,
    {
      description: `Free. The result of an asynchronous purchase, for the wallet that paid: sign "Agora job-status <jobId>" with it.`,
      inputSchema: z.object(jobStatusArgs),
    },
    async ({ jobId, signature }) => {
      const status = await jobs.statusFor(jobId, signature as `0x${string}`);
      if (!status) return failure("No such job for this wallet.");
      return json(status);
    },
  );
}

/**
 * x402's EIP-2612 gas-sponsoring extension, as `declareEip2612GasSponsoringExtension` (@x402/extensions) declares it:
 * an upto buyer whose token allowance to Permit2 is short signs a permit, which the facilitator spends in the
 * settlement transaction, so a buyer never needs gas.
 */
const EIP2612_GAS_SPONSORING = {
  eip2612GasSponsoring: {
    info: {
      description: "The facilitator accepts EIP-2612 gasless Permit to `Permit2` canonical contract.",
      version: "1",
    },
  },
};

function registerX402Tool({ server, options: { network }, seller }: Tools, gate: PaymentGate, item: SaleItem): void {
  const paymentRequired = async (error: string, accepts?: PaymentRequired["accepts"]): Promise<CallToolResult> => {
    const offer = accepts ? undefined : await gate.offer(item);
    if (!accepts && !offer) {
      const what = item.channel ? "payment channels" : "metered payments";
      return failure(
        `"${item.name}" cannot be paid right now: the payment facilitator does not settle ${what} or cannot be reached. Nothing was charged.`,
      );
    }
    const body: PaymentRequired = {
      x402Version: 2,
      error,
      resource: gate.resourceFor(item),
      accepts: accepts ?? [offer as PaymentRequired["accepts"][number]],
      ...(item.metered ? { extensions: EIP2612_GAS_SPONSORING } : {}),
    };
    return { isError: true, structuredContent: body, content: [{ type: "text", text: JSON.stringify(body) }] };
  };
  // Every parameter is required, and says so in the schema: a generic client fills in what the schema asks.
  const shape = Object.fromEntries(
    Object.entries(item.params).map(([name, hint]) => [name, z.string().min(1).max(MAX_PARAM_CHARS).describe(hint)]),
  );
  const cost = item.channel
    ? `Costs ${formatUsd(item.units)} per call in USDC on ${network.label}, paid over x402 through a payment channel (batch-settlement): one deposit, then a voucher per call; charged only if the call succeeds.`
    : item.metered
      ? `Costs up to ${formatUsd(item.units)} per call in USDC on ${network.label}, paid over x402 (upto): charged only what the call used, and only if it succeeds.`
      : `Costs ${formatUsd(item.units)} per call in USDC on ${network.label}, paid over x402; charged only if the call succeeds.`;
  server.registerTool(
    item.x402Tool!,
    {
      description: `${item.description} ${cost}`,
      inputSchema: z.object(shape),
      // `settles`: this tool settles only after the item succeeded (older kits settled first, and said nothing).
      // `scheme` upto: `amount` is the most a call may cost.
      _meta: {
        "x402/price": {
          amount: item.units.toString(),
          asset: network.asset,
          network: network.caip2,
          settles: "after-success",
          ...(item.metered ? { scheme: "upto" } : item.channel ? { scheme: "batch-settlement" } : {}),
        },
      },
    },
    async (args, ctx) => {
      const payment = ctx.mcpReq._meta?.[X402_PAYMENT_META];
      if (payment === undefined) return paymentRequired("Payment required");
      // A channel's buyer closes it by sending a refund to any of its tools: no call runs, nothing is charged.
      if (item.channel && isRefundRequest(payment))
        return channelRefundAnswer(item, await gate.channels.refund(item, payment));
      const read = readParams(item, args as Record<string, unknown>);
      if (!("params" in read)) return failure(missingMessage(item, read));
      // Verified, delivered, then settled only if the item succeeded (sale.ts).
      const sale = await seller.sell(item, read.params, payment, "settle-after-success");
      if (sale.ok) return x402Answer(item, sale);
      // A stale channel voucher: x402's code and the channel's state, which x402's clients resync from.
      return sale.corrective
        ? paymentRequired(sale.corrective.error, sale.corrective.accepts)
        : paymentRequired(sale.reason);
    },
  );
}

/**
 * An x402 tool's answer: the item's own output with the settlement in `_meta`; for an asynchronous item the job
 * ticket, unsettled (the payment settles when the result is ready, and job-status names its transaction); for a
 * failed item an error that says nothing was charged.
 */
function x402Answer(item: SaleItem, { orderId, paid, delivery }: Extract<SaleResult, { ok: true }>): CallToolResult {
  if (delivery.status === "pending") {
    const message = `"${item.name}" is being prepared: call ${JOB_STATUS_TOOL} with jobId ${delivery.jobId} in about ${delivery.checkAfterSeconds} seconds. The payment settles only when the result is ready; a job that fails costs nothing.`;
    return json({
      orderId,
      status: "pending",
      jobId: delivery.jobId,
      checkAfterSeconds: delivery.checkAfterSeconds,
      settles: "when-ready",
      message,
    });
  }
  if (delivery.status === "delivered") {
    // `amount`: what moved (x402 version 2's SettleResponse field; for a metered call the part of the maximum it used).
    const settlement = {
      success: true,
      transaction: paid!.transaction,
      network: paid!.network,
      payer: paid!.payer,
      amount: paid!.units.toString(),
      ...(paid!.extra ? { extra: paid!.extra } : {}),
    };
    return {
      content: [{ type: "text", text: asText(delivery.output) }],
      _meta: { [X402_PAYMENT_RESPONSE_META]: settlement },
    };
  }
  return {
    isError: true,
    content: [{ type: "text", text: `"${item.name}" failed: ${delivery.why}. ${NOT_CHARGED} (order ${orderId})` }],
  };
}

/** A channel closed at its buyer's request: what went back, with the refund's settlement in `_meta`. */
function channelRefundAnswer(item: SaleItem, refund: ChannelRefund | Refused): CallToolResult {
  if (!refund.ok) return failure(`The channel for "${item.name}" was not closed: ${refund.reason}`);
  const text = `Channel closed: ${formatUsd(refund.refunded)} went back to the payer (transaction ${refund.transaction}); the calls delivered on it were claimed in the same transaction.`;
  return { content: [{ type: "text", text }], _meta: { [X402_PAYMENT_RESPONSE_META]: refund.settlement } };
}
