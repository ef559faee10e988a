// The MCP tools a provider's server exposes: MonetizedMCP's price-listing, payment-methods and make-purchase
// (wire-compatible with servers built on the MonetizedMCP SDK), job-status for asynchronous items, and one
// tool per item sold through the standard x402 binding for MCP.
import { randomBytes } from "node:crypto";
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
  type PaymentRequired,
} from "@agora-mcp/protocol";
import type { CatalogueItem, PurchaseContext, ResolvedOptions } from "./config.js";
import type { JobStore } from "./jobs.js";
import type { PaymentGate } from "./payments.js";
import { purchaseReporter } from "./purchase-log.js";

const MAX_PARAM_CHARS = 4_000;

function json(value: unknown): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }] };
  if (value && typeof value === "object" && !Array.isArray(value)) result.structuredContent = value as Record<string, unknown>;
  return result;
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function newOrderId(): string {
  return `ord_${randomBytes(12).toString("hex")}`;
}

/** The declared parameters as strings, or the ones missing. Undeclared parameters are dropped. */
function readParams(item: CatalogueItem, given: Record<string, unknown> | undefined): { params: Record<string, string> } | { missing: string[]; tooLong?: string } {
  const params: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of Object.keys(item.params)) {
    const raw = given?.[name];
    const value = raw === undefined || raw === null ? "" : typeof raw === "string" ? raw : JSON.stringify(raw);
    if (value.trim() === "") missing.push(name);
    else if (value.length > MAX_PARAM_CHARS) return { missing: [], tooLong: name };
    else params[name] = value;
  }
  return missing.length ? { missing } : { params };
}

function missingMessage(item: CatalogueItem, read: { missing: string[]; tooLong?: string }): string {
  if (read.tooLong) return `Parameter "${read.tooLong}" is longer than ${MAX_PARAM_CHARS} characters; nothing was charged.`;
  const hints = read.missing.map((n) => `${n} (${item.params[n]})`).join(", ");
  return `Missing parameters for "${item.name}": ${hints}. Nothing was charged.`;
}

type Paid = { payer?: string; transaction?: string; timings?: { verifyMs: number; settleMs: number } };

export type ToolDeps = { options: ResolvedOptions; gate: PaymentGate; jobs: JobStore };

export function buildTools({ options, gate, jobs }: ToolDeps): McpServer {
  const server = new McpServer({ name: options.name, version: options.version });
  const { network, items } = options;
  const findItem = (id: string) => items.find((i) => i.id === id) ?? items.find((i) => i.name === id);
  const report = purchaseReporter(options);

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
          // The item's own tool under the x402 binding for MCP; MonetizedMCP clients ignore the field.
          ...(i.x402Tool ? { x402Tool: i.x402Tool } : {}),
        })),
      });
    },
  );

  server.registerTool(
    "payment-methods",
    { description: "The payment methods this server accepts and the wallet each pays into." },
    async () => {
      const methods = [{ paymentMethod: network.paymentMethod, walletAddress: options.walletAddress }];
      return { content: [{ type: "text", text: JSON.stringify(methods) }] };
    },
  );

  /** Runs a paid (or free) item: at once, or as a job the buyer collects with job-status. */
  async function deliver(item: CatalogueItem, params: Record<string, string>, context: PurchaseContext & Paid, paymentMethod: string) {
    const base = {
      purchasableItemId: item.id,
      makePurchaseRequest: { itemId: item.id, params, paymentMethod },
      orderId: context.orderId,
      amount: item.units.toString(),
      ...(context.transaction ? { transaction: context.transaction, network: network.caip2, payer: context.payer } : {}),
    };
    if (item.async && context.payer) {
      const job = jobs.start(context.payer as `0x${string}`, item.async.checkAfterSeconds, async () => item.handler(params, context));
      report({ orderId: context.orderId, itemId: item.id, units: base.amount, outcome: "pending", transaction: context.transaction, payer: context.payer });
      return json({
        ...base,
        status: "pending",
        jobId: job.id,
        checkAfterSeconds: item.async.checkAfterSeconds,
        toolResult: `Paid. "${item.name}" is being prepared: call ${JOB_STATUS_TOOL} with jobId ${job.id} in about ${item.async.checkAfterSeconds} seconds.`,
      });
    }
    try {
      const started = performance.now();
      const output = await item.handler(params, { orderId: context.orderId, itemId: context.itemId, payer: context.payer, transaction: context.transaction });
      const timings = { ...context.timings, handlerMs: Math.round(performance.now() - started) };
      report({ orderId: context.orderId, itemId: item.id, units: base.amount, outcome: "delivered", transaction: context.transaction, payer: context.payer, timings });
      return json({ ...base, status: "delivered", toolResult: asText(output) });
    } catch (error) {
      const why = error instanceof Error ? error.message.slice(0, 300) : "the item failed";
      report({ orderId: context.orderId, itemId: item.id, units: base.amount, outcome: "failed", reason: why, transaction: context.transaction, payer: context.payer });
      const paid = context.transaction ? ` The payment settled (transaction ${context.transaction}); quote order ${context.orderId} to the provider.` : "";
      return failure(`"${item.name}" failed: ${why}.${paid}`);
    }
  }

  server.registerTool(
    MAKE_PURCHASE_TOOL,
    {
      description:
        "Buys one call of an item from price-listing. signedTransaction is an x402 exact payment (base64) for the item's price to this server's wallet; free items need none. The item is delivered only after the payment has settled on-chain.",
      inputSchema: z.object(makePurchaseArgs),
    },
    async ({ itemId, params: given, signedTransaction, paymentMethod }) => {
      const item = findItem(itemId);
      if (!item) return failure(`Unknown item "${itemId.slice(0, 100)}": call price-listing for what this server sells. Nothing was charged.`);
      const read = readParams(item, given);
      if (!("params" in read)) return failure(missingMessage(item, read));
      const orderId = newOrderId();
      if (item.units === 0n) return deliver(item, read.params, { orderId, itemId: item.id }, paymentMethod);
      if (paymentMethod.toUpperCase() !== network.paymentMethod) {
        return failure(`This server is paid in ${network.paymentMethod}, not ${paymentMethod.slice(0, 40)}. Nothing was charged.`);
      }
      if (!signedTransaction.trim()) {
        return failure(`Payment required: "${item.name}" costs ${formatUsd(item.units)} (USDC on ${network.label}) to ${options.walletAddress}.`);
      }
      const charged = await gate.charge(item, signedTransaction);
      if (!charged.ok) {
        report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "refused", reason: charged.reason });
        return failure(`${charged.reason} Nothing was delivered.`);
      }
      return deliver(item, read.params, { orderId, itemId: item.id, payer: charged.payer, transaction: charged.transaction, timings: charged.timings }, paymentMethod);
    },
  );

  if (items.some((i) => i.async)) {
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

  for (const item of items.filter((i) => i.x402Tool)) {
    const requirements = gate.requirements(item);
    const paymentRequired = (error: string): CallToolResult => {
      const body: PaymentRequired = { x402Version: 2, error, resource: gate.resourceFor(item), accepts: [requirements.v2] };
      return { isError: true, structuredContent: body as unknown as Record<string, unknown>, content: [{ type: "text", text: JSON.stringify(body) }] };
    };
    // Every parameter is required, and says so in the schema: a generic client fills in what the schema asks.
    const shape = Object.fromEntries(Object.entries(item.params).map(([name, hint]) => [name, z.string().min(1).max(MAX_PARAM_CHARS).describe(hint)]));
    server.registerTool(
      item.x402Tool!,
      {
        description: `${item.description} Costs ${formatUsd(item.units)} per call in USDC on ${network.label}, paid over x402.`,
        inputSchema: z.object(shape),
        _meta: { "x402/price": { amount: item.units.toString(), asset: network.asset, network: network.caip2 } },
      },
      async (args, ctx) => {
        const payment = ctx.mcpReq._meta?.[X402_PAYMENT_META];
        if (payment === undefined) return paymentRequired("Payment required");
        const read = readParams(item, args as Record<string, unknown>);
        if (!("params" in read)) return failure(missingMessage(item, read));
        const orderId = newOrderId();
        const charged = await gate.charge(item, payment);
        if (!charged.ok) {
          report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "refused", reason: charged.reason });
          return paymentRequired(charged.reason);
        }
        const settlement = { success: true, transaction: charged.transaction, network: charged.network, payer: charged.payer };
        const paid = (result: CallToolResult): CallToolResult => ({ ...result, _meta: { [X402_PAYMENT_RESPONSE_META]: settlement } });
        const context = { orderId, itemId: item.id, payer: charged.payer, transaction: charged.transaction };
        if (item.async) {
          // The same job make-purchase starts: the x402 answer is the ticket, job-status hands over the result.
          const job = jobs.start(charged.payer as `0x${string}`, item.async.checkAfterSeconds, async () => item.handler(read.params, context));
          report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "pending", transaction: charged.transaction, payer: charged.payer });
          return paid(json({ orderId, status: "pending", jobId: job.id, checkAfterSeconds: item.async.checkAfterSeconds, transaction: charged.transaction }));
        }
        try {
          const output = await item.handler(read.params, context);
          report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "delivered", transaction: charged.transaction, payer: charged.payer, timings: charged.timings });
          return paid({ content: [{ type: "text", text: asText(output) }] });
        } catch (error) {
          const why = error instanceof Error ? error.message.slice(0, 300) : "the item failed";
          report({ orderId, itemId: item.id, units: item.units.toString(), outcome: "failed", reason: why, transaction: charged.transaction });
          return paid({ isError: true, content: [{ type: "text", text: `"${item.name}" failed: ${why}. The payment settled; quote order ${orderId} to the provider.` }] });
        }
      },
    );
  }
  // The tool list is fixed for the server's life, so it never sends notifications/tools/list_changed: say so
  // (registerTool advertises listChanged: true by default).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
