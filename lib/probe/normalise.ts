// Reads the MonetizedMCP tools' answers in every shape seen in the wild, noting each deviation
// as a quirk instead of failing: servers built on different SDK versions disagree on the details.
import {
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  SUPPORTED_PAYMENT_METHODS,
  type AcceptedPayment,
  type PricedItem,
  type ProbedTool,
} from "./types";

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

function clip(value: string, length = 160): string {
  return value.length > length ? `${value.slice(0, length)}…` : value;
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
  const texts = Array.isArray(result.content)
    ? result.content.filter((c): c is { type: "text"; text: string } => isObject(c) && c.type === "text" && typeof c.text === "string").map((c) => c.text)
    : [];
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

function amountOf(value: unknown, quirks: Quirks): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") {
    quirks.add("amounts given as strings");
    return Number(value.trim().replace(/^\$/, ""));
  }
  return undefined;
}

/** USDC_BASE_SEPOLIA → USDC. */
function currencyOfMethod(paymentMethod: string | undefined): string | undefined {
  return paymentMethod?.split("_")[0]?.toUpperCase() || undefined;
}

function readItem(raw: unknown, index: number, quirks: Quirks): PricedItem | null {
  if (!isObject(raw)) {
    quirks.add("price-listing: an item is not an object");
    return null;
  }
  const name = text(raw.name) ?? text(raw.id) ?? text(raw.toolName) ?? text(raw.tool) ?? `item ${index + 1}`;
  let amount: number | undefined;
  let currency: string | undefined;
  let paymentMethod = text(raw.paymentMethod);
  if (isObject(raw.price)) {
    amount = amountOf(raw.price.amount ?? raw.price.value, quirks);
    currency = text(raw.price.currency) ?? text(raw.currency);
    paymentMethod = text(raw.price.paymentMethod) ?? paymentMethod;
  } else if (raw.price !== undefined) {
    quirks.add("prices given as {price, currency}");
    amount = amountOf(raw.price, quirks);
    currency = text(raw.currency);
  } else if (raw.amount !== undefined) {
    quirks.add("prices given as a bare amount on the item");
    amount = amountOf(raw.amount, quirks);
    currency = text(raw.currency);
  }
  if (amount === undefined) {
    quirks.add(`price-listing: "${clip(name, 60)}" has no price`);
    return null;
  }
  if (!Number.isFinite(amount) || amount < 0) {
    quirks.add(`price-listing: "${clip(name, 60)}" has an invalid amount`);
    return null;
  }
  if (!currency) {
    currency = currencyOfMethod(paymentMethod);
    quirks.add(currency ? "currency missing; taken from the payment method" : "currency missing; assumed USDC");
    currency ??= "USDC";
  }
  const item: PricedItem = { name, amount, currency: currency.toUpperCase() };
  const toolName = text(raw.toolName) ?? text(raw.tool);
  const description = text(raw.description);
  if (toolName) item.toolName = toolName;
  if (description) item.description = description;
  if (paymentMethod) item.paymentMethod = paymentMethod.toUpperCase();
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

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

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

/** The cheapest dollar price; null when nothing is priced. Undefined when items exist but none is in USD(C). */
export function lowestDollarPrice(items: PricedItem[]): number | null | undefined {
  if (items.length === 0) return null;
  const dollars = items.filter((i) => i.currency === "USDC" || i.currency === "USD").map((i) => i.amount);
  return dollars.length ? Math.min(...dollars) : undefined;
}

/** The first of `names` the server exposes. */
export function findTool(toolNames: string[], names: readonly string[]): string | undefined {
  return names.find((n) => toolNames.includes(n));
}

export function isVerifiable(reachable: boolean, toolNames: string[], methods: AcceptedPayment[]): boolean {
  return (
    reachable &&
    findTool(toolNames, PRICE_LISTING_TOOLS) !== undefined &&
    findTool(toolNames, PAYMENT_METHODS_TOOLS) !== undefined &&
    toolNames.includes(MAKE_PURCHASE_TOOL) &&
    methods.some(
      (m) => (SUPPORTED_PAYMENT_METHODS as readonly string[]).includes(m.paymentMethod) && EVM_ADDRESS.test(m.walletAddress),
    )
  );
}

/** How much of a probed server's answer is kept: a probe row is history, stored every run. */
export const STORAGE_LIMITS = { tools: 100, items: 100, paymentMethods: 20, quirks: 30, text: 500, schemaChars: 8_000 } as const;

function short(value: string): string {
  return clip(value, STORAGE_LIMITS.text);
}

/** Caps the list, records the cut as a quirk. */
function capped<T>(list: T[], limit: number, what: string, quirks: Quirks): T[] {
  if (list.length <= limit) return list;
  quirks.add(`${what} cut to ${limit} of ${list.length}`);
  return list.slice(0, limit);
}

/** Bounds what a hostile or sprawling server can make us store. */
export function boundForStorage<T extends { tools: ProbedTool[]; pricedItems: PricedItem[]; paymentMethods: AcceptedPayment[] }>(
  result: T,
  quirks: Quirks,
): T {
  const tools = capped(result.tools, STORAGE_LIMITS.tools, "tool list", quirks).map((tool) => {
    const schemaSize = JSON.stringify(tool.inputSchema ?? null).length;
    if (schemaSize > STORAGE_LIMITS.schemaChars) quirks.add(`input schema of \`${clip(tool.name, 60)}\` larger than ${STORAGE_LIMITS.schemaChars} characters, not stored`);
    return {
      name: short(tool.name),
      description: tool.description === null ? null : short(tool.description),
      inputSchema: schemaSize > STORAGE_LIMITS.schemaChars ? null : tool.inputSchema,
    };
  });
  const pricedItems = capped(result.pricedItems, STORAGE_LIMITS.items, "price listing", quirks).map((item) => ({
    ...item,
    name: short(item.name),
    ...(item.description === undefined ? {} : { description: short(item.description) }),
    ...(item.toolName === undefined ? {} : { toolName: short(item.toolName) }),
  }));
  const paymentMethods = capped(result.paymentMethods, STORAGE_LIMITS.paymentMethods, "payment methods", quirks).map((m) => ({
    paymentMethod: short(m.paymentMethod),
    walletAddress: short(m.walletAddress),
  }));
  return { ...result, tools, pricedItems, paymentMethods };
}

export function boundQuirks(quirks: Quirks): string[] {
  const list = quirks.list();
  return list.length > STORAGE_LIMITS.quirks ? [...list.slice(0, STORAGE_LIMITS.quirks - 1), `and ${list.length - STORAGE_LIMITS.quirks + 1} more quirks`] : list;
}
