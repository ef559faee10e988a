// MonetizedMCP's three tools: their argument shapes, and tolerant readers for their answers in every shape
// seen in the wild. Each deviation is noted as a quirk instead of failing: servers built on different SDK
// versions disagree on the details.
import { z } from "zod";
import { AmountError, unitsToNumber, usdToUnits } from "./amounts.js";
import { EVM_ADDRESS, SUPPORTED_PAYMENT_METHODS } from "./networks.js";
import type { PaymentRequirementsV1, PaymentRequirementsV2 } from "./x402.js";
import type { PaidStyle, ToolPayment } from "./paid-styles.js";

export const PRICE_LISTING_TOOLS = ["price-listing", "pricing-listing"] as const;
export const PAYMENT_METHODS_TOOLS = ["payment-methods", "payment-method"] as const;
export const MAKE_PURCHASE_TOOL = "make-purchase";
/** The provider kit's free tool that hands an asynchronous item's result to the buyer who paid. */
export const JOB_STATUS_TOOL = "job-status";
/** MonetizedMCP SDK servers answer a refused payment as a normal result with this toolResult. */
export const PAYMENT_FAILED = "Payment failed";

/** Argument shapes as MonetizedMCP clients send them (zod raw shapes, usable with McpServer.registerTool). */
export const priceListingArgs = { searchQuery: z.string().max(200).optional() };
export const makePurchaseArgs = {
  itemId: z.string().min(1).max(200).describe("The id of an item from price-listing"),
  params: z.record(z.string(), z.unknown()).describe("The item's parameters, named as in price-listing's `params`"),
  signedTransaction: z
    .string()
    .max(16_384)
    .describe(
      "The x402 payment: base64 of an x402 v1 exact payment (an EIP-3009 authorisation); empty for a free item",
    ),
  paymentMethod: z.string().max(40).describe("USDC_BASE_SEPOLIA or USDC_BASE_MAINNET"),
};

export type ProbedTool = {
  name: string;
  description: string | null;
  inputSchema: unknown;
  /** Set on a tool read as paid per call: why it was called unpaid, and what it asked (paid-styles.ts). */
  paid?: ToolPayment;
};

export type PricedItem = {
  /** The id make-purchase takes, when the server gives one. */
  id?: string;
  name: string;
  /** The tool the item is bought through, when the server names one. */
  toolName?: string;
  description?: string;
  /** Dollars, for display and sorting. */
  amount: number;
  /** The exact price in the token's smallest unit (USDC: 6 decimals), as a decimal string. */
  units?: string;
  currency: string;
  paymentMethod?: string;
  /** Parameter name → hint, as the listing gives them. */
  params?: Record<string, string>;
  /** The tool the listing says also sells this item through the x402 binding for MCP (the provider kit names it). */
  x402Tool?: string;
  /** The listing says the item is asynchronous: a purchase answers a job, collected later with job-status. */
  async?: boolean;
  /** Metered (x402's upto scheme): `amount` is the most one call may cost; the server settles what the call used. */
  metered?: boolean;
  /**
   * Set on an item read from an x402-paid tool (`toolName`): the version 2 requirements its unpaid call answered
   * in PaymentRequired. Only such items can be paid by a generic x402 client.
   */
  x402Requirements?: PaymentRequirementsV2;
  /**
   * Set instead on an item read from a tool that answers x402 version 1 (Vercel's x402-mcp, MCPay): the version 1
   * requirements its unpaid call answered, exactly as the server sent them (x402 discovery lists them as a version 1
   * entry, which a version 1 client pays).
   */
  x402RequirementsV1?: PaymentRequirementsV1;
  /** How the item's tool is paid, for an item read from a paid tool (paid-styles.ts). */
  style?: PaidStyle;
};

export type AcceptedPayment = { paymentMethod: string; walletAddress: string };

/** An ordered set of quirk descriptions. */
export class Quirks {
  private readonly seen = new Set<string>();
  add(quirk: string): void {
    this.seen.add(quirk);
  }
  list(): string[] {
    return [...this.seen];
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

export function clip(value: string, length = 160): string {
  return value.length > length ? `${value.slice(0, length)}…` : value;
}

/** The text items of a tool result. */
export function resultTexts(result: unknown): string[] {
  if (!isObject(result) || !Array.isArray(result.content)) return [];
  return result.content
    .filter((c): c is { type: "text"; text: string } => isObject(c) && c.type === "text" && typeof c.text === "string")
    .map((c) => c.text);
}

/**
 * The JSON a tool answered: structuredContent when present, else the first text item that parses.
 * Undefined (with a quirk) when the call failed or carried no JSON.
 */
export function readToolPayload(tool: string, result: unknown, quirks: Quirks): unknown {
  if (!isObject(result)) {
    quirks.add(`${tool}: answer is not a tool result`);
    return undefined;
  }
  const texts = resultTexts(result);
  if (result.isError === true) {
    quirks.add(`${tool}: returned an error: ${clip(texts.join(" ") || "no message")}`);
    return undefined;
  }
  if (isObject(result.structuredContent)) return result.structuredContent;
  for (const t of texts) {
    try {
      return JSON.parse(t);
    } catch {
      // Try the next text item; some servers put a sentence before the JSON.
    }
  }
  quirks.add(`${tool}: answer carries no JSON (${clip(texts.join(" ") || "empty content")})`);
  return undefined;
}

function unitsOf(value: unknown, quirks: Quirks): bigint | undefined {
  if (typeof value === "string" && value.trim() !== "") quirks.add("amounts given as strings");
  if (typeof value !== "number" && !(typeof value === "string" && value.trim() !== "")) return undefined;
  try {
    return usdToUnits(value);
  } catch (error) {
    if (error instanceof AmountError) return -1n;
    throw error;
  }
}

/** USDC_BASE_SEPOLIA → USDC. */
function currencyOfMethod(paymentMethod: string | undefined): string | undefined {
  return paymentMethod?.split("_")[0]?.toUpperCase() || undefined;
}

function readParams(raw: unknown): Record<string, string> | undefined {
  if (!isObject(raw)) return undefined;
  const params: Record<string, string> = {};
  for (const [name, hint] of Object.entries(raw).slice(0, 50)) {
    params[clip(name, 100)] = typeof hint === "string" ? clip(hint, 300) : clip(JSON.stringify(hint) ?? "", 300);
  }
  return params;
}

function readItem(raw: unknown, index: number, quirks: Quirks): PricedItem | null {
  if (!isObject(raw)) {
    quirks.add("price-listing: an item is not an object");
    return null;
  }
  const name = text(raw.name) ?? text(raw.id) ?? text(raw.toolName) ?? text(raw.tool) ?? `item ${index + 1}`;
  let units: bigint | undefined;
  let currency: string | undefined;
  let paymentMethod = text(raw.paymentMethod);
  if (isObject(raw.price)) {
    units = unitsOf(raw.price.amount ?? raw.price.value, quirks);
    currency = text(raw.price.currency) ?? text(raw.currency);
    paymentMethod = text(raw.price.paymentMethod) ?? paymentMethod;
  } else if (raw.price !== undefined) {
    quirks.add("prices given as {price, currency}");
    units = unitsOf(raw.price, quirks);
    currency = text(raw.currency);
  } else if (raw.amount !== undefined) {
    quirks.add("prices given as a bare amount on the item");
    units = unitsOf(raw.amount, quirks);
    currency = text(raw.currency);
  }
  if (units === undefined) {
    quirks.add(`price-listing: "${clip(name, 60)}" has no price`);
    return null;
  }
  if (units < 0n) {
    quirks.add(`price-listing: "${clip(name, 60)}" has an invalid amount`);
    return null;
  }
  if (!currency) {
    currency = currencyOfMethod(paymentMethod);
    quirks.add(currency ? "currency missing; taken from the payment method" : "currency missing; assumed USDC");
    currency ??= "USDC";
  }
  const item: PricedItem = {
    name,
    amount: unitsToNumber(units),
    units: units.toString(),
    currency: currency.toUpperCase(),
  };
  const id = text(raw.id);
  const toolName = text(raw.toolName) ?? text(raw.tool);
  const x402Tool = text(raw.x402Tool);
  const description = text(raw.description);
  const params = readParams(raw.params);
  if (id) item.id = id;
  if (toolName) item.toolName = toolName;
  if (x402Tool) item.x402Tool = clip(x402Tool, 128);
  if (raw.async === true) item.async = true;
  if (raw.metered === true) item.metered = true;
  if (description) item.description = description;
  if (paymentMethod) item.paymentMethod = paymentMethod.toUpperCase();
  if (params) item.params = params;
  return item;
}

/** The priced items of a price-listing answer, or null when the answer has no readable list. */
export function readPricedItems(payload: unknown, quirks: Quirks): PricedItem[] | null {
  let list: unknown;
  if (Array.isArray(payload)) {
    quirks.add("price-listing answered a bare array, not {items}");
    list = payload;
  } else if (isObject(payload)) {
    list = payload.items ?? payload.priceListing ?? payload.pricingListing ?? payload.listings;
    if (list !== undefined && payload.items === undefined) quirks.add("price-listing list is not under `items`");
  }
  if (!Array.isArray(list)) {
    if (payload !== undefined) quirks.add("price-listing: no list of items found");
    return null;
  }
  return list.map((raw, i) => readItem(raw, i, quirks)).filter((i): i is PricedItem => i !== null);
}

/** The accepted payment methods of a payment-methods answer, or null when unreadable. */
export function readPaymentMethods(payload: unknown, quirks: Quirks): AcceptedPayment[] | null {
  let list: unknown[];
  if (Array.isArray(payload)) list = payload;
  else if (isObject(payload) && Array.isArray(payload.paymentMethods)) list = payload.paymentMethods;
  else if (isObject(payload) && (payload.paymentMethod !== undefined || payload.walletAddress !== undefined)) {
    quirks.add("payment-methods answered a single object, not an array");
    list = [payload];
  } else {
    if (payload !== undefined) quirks.add("payment-methods: no payment methods found");
    return null;
  }
  const methods: AcceptedPayment[] = [];
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const method = text(raw.paymentMethod) ?? text(raw.method);
    const wallet = text(raw.walletAddress) ?? text(raw.address) ?? text(raw.payTo) ?? text(raw.sellerAccountId);
    if (raw.paymentMethod === undefined && method) quirks.add("payment method named `method`, not `paymentMethod`");
    if (raw.walletAddress === undefined && wallet) quirks.add("wallet not named `walletAddress`");
    if (!method || !wallet) {
      quirks.add("payment-methods: an entry lacks a payment method or wallet address");
      continue;
    }
    if (method !== method.toUpperCase()) quirks.add("payment method not in upper case");
    if (!EVM_ADDRESS.test(wallet)) quirks.add(`payment-methods: wallet "${clip(wallet, 60)}" is not a 0x address`);
    methods.push({ paymentMethod: method.toUpperCase(), walletAddress: wallet });
  }
  return methods;
}

/**
 * The cheapest paid item's dollar price (free items aside: they don't make a paid server free); null when
 * nothing is priced or everything is free. Undefined when items exist but none is in USD(C).
 */
export function lowestDollarPrice(items: PricedItem[]): number | null | undefined {
  if (items.length === 0) return null;
  const dollars = items.filter((i) => i.currency === "USDC" || i.currency === "USD").map((i) => i.amount);
  if (!dollars.length) return undefined;
  const paid = dollars.filter((amount) => amount > 0);
  return paid.length ? Math.min(...paid) : null;
}

/** The first of `names` the server exposes. */
export function findTool(toolNames: string[], names: readonly string[]): string | undefined {
  return names.find((n) => toolNames.includes(n));
}

/** Whether a make-purchase tool takes the payment as MonetizedMCP clients send it (`signedTransaction`). */
export function takesSignedTransaction(tool: ProbedTool | undefined): boolean {
  const schema = tool?.inputSchema;
  return isObject(schema) && isObject(schema.properties) && "signedTransaction" in schema.properties;
}

export function acceptsSupportedMethod(methods: AcceptedPayment[]): boolean {
  return methods.some(
    (m) =>
      (SUPPORTED_PAYMENT_METHODS as readonly string[]).includes(m.paymentMethod) && EVM_ADDRESS.test(m.walletAddress),
  );
}

/** Reachable, exposes all three MonetizedMCP tools, and accepts a supported payment method. */
export function isVerifiable(reachable: boolean, toolNames: string[], methods: AcceptedPayment[]): boolean {
  return (
    reachable &&
    findTool(toolNames, PRICE_LISTING_TOOLS) !== undefined &&
    findTool(toolNames, PAYMENT_METHODS_TOOLS) !== undefined &&
    toolNames.includes(MAKE_PURCHASE_TOOL) &&
    acceptsSupportedMethod(methods)
  );
}

/** What a make-purchase call answered: what it delivered, or why it did not (the purchase as a whole ends in @agora-mcp/client's PurchaseOutcome). */
export type MakePurchaseAnswer =
  | {
      ok: true;
      orderId?: string;
      /** What the item delivered (text, or JSON text). */
      toolResult: unknown;
      transaction?: string;
      network?: string;
      payer?: string;
      /** An asynchronous item: the job to ask `job-status` about. */
      jobId?: string;
      checkAfterSeconds?: number;
      raw: unknown;
    }
  | { ok: false; reason: string; raw: unknown };

/**
 * Reads a make-purchase answer. Every form of refusal counts as a failure: `isError`, a plain-text answer
 * (SDK servers answer errors without isError), `toolResult: "Payment failed"`, or no order at all.
 */
export function readPurchaseResult(result: unknown): MakePurchaseAnswer {
  const quirks = new Quirks();
  const texts = resultTexts(result);
  if (isObject(result) && result.isError === true) {
    return { ok: false, reason: clip(texts.join(" ") || "The server refused the purchase", 500), raw: result };
  }
  const payload = readToolPayload(MAKE_PURCHASE_TOOL, result, quirks);
  if (!isObject(payload)) {
    return { ok: false, reason: clip(texts.join(" ") || "The server answered no purchase result", 500), raw: result };
  }
  if (payload.toolResult === PAYMENT_FAILED || payload.success === false || typeof payload.error === "string") {
    const reason = text(payload.error) ?? text(payload.message) ?? PAYMENT_FAILED;
    return { ok: false, reason: clip(reason, 500), raw: result };
  }
  if (payload.toolResult === undefined && payload.jobId === undefined && payload.result === undefined) {
    return { ok: false, reason: "The server answered without delivering anything", raw: result };
  }
  const settlement = isObject(payload.settlement) ? payload.settlement : payload;
  const outcome: MakePurchaseAnswer = {
    ok: true,
    toolResult: payload.toolResult ?? payload.result ?? null,
    raw: result,
  };
  const orderId = text(payload.orderId);
  const transaction = text(settlement.transaction) ?? text(payload.transactionHash) ?? text(payload.txHash);
  const network = text(settlement.network);
  const payer = text(settlement.payer);
  const jobId = text(payload.jobId);
  if (orderId) outcome.orderId = orderId;
  if (transaction) outcome.transaction = transaction;
  if (network) outcome.network = network;
  if (payer) outcome.payer = payer;
  if (jobId) outcome.jobId = jobId;
  if (typeof payload.checkAfterSeconds === "number") outcome.checkAfterSeconds = payload.checkAfterSeconds;
  return outcome;
}
