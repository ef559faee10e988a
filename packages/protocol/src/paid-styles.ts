// The ways paid MCP servers say "this tool costs money", ask for it, take the payment and report the settlement.
// Each library of the field speaks its own dialect of x402 over MCP (read from each library's published code;
// ../shared/PROTOCOLS.md section 2 lists them). The probe, the wallet client and the registry all read them here,
// so a server is read the same way wherever Agora meets it.
//
// Style               paid signal in tools/list                  unpaid call answers                      payment goes in                       settlement comes back in
// agora-kit           _meta["x402/price"]                         isError + PaymentRequired (v2)           _meta["x402/payment"] (object)        _meta["x402/payment-response"]
// x402-mcp            nothing (an owner, a discovery entry…)      isError + PaymentRequired structured     _meta["x402/payment"] (v2 object;     _meta["x402/payment-response"]
//                                                                  content and JSON text                   v1 servers such as MCPay: base64)
// cloudflare-agents   _meta["agents-x402/paymentRequired"]        isError + _meta["x402/error"] (v2)       _meta["x402/payment"] (base64 JSON)   _meta["x402/payment-response"]
// vercel-x402-mcp     annotations.paymentHint                     isError + {x402Version: 1, accepts}      _meta["x402.payment"] (v1 base64)     _meta["x402.payment-response"]
// mcpay               annotations.paymentHint + paymentPriceUSD   isError + _meta["x402/error"] (v1)       _meta["x402/payment"] (v1 base64)     _meta["x402/payment-response"]
// jsonrpc-402         nothing                                     JSON-RPC error {code: 402, data}         _meta["x402/payment"] (as x402-mcp)   _meta["x402/payment-response"]
// monetized-mcp       price-listing / make-purchase tools         (not a per-tool call: see monetized.ts)
import { z } from "zod";
import { EVM_ADDRESS, findNetwork } from "./networks.js";
import {
  X402_PAYMENT_META,
  X402_PAYMENT_RESPONSE_META,
  encodePaymentV1,
  type OutgoingPayment,
  type PaymentRequired,
  type PaymentScheme,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
  type SettlementResponse,
} from "./x402.js";

export const PAID_STYLES = [
  "agora-kit",
  "x402-mcp",
  "cloudflare-agents",
  "vercel-x402-mcp",
  "mcpay",
  "jsonrpc-402",
  "monetized-mcp",
] as const;
export type PaidStyle = (typeof PAID_STYLES)[number];

/** How each style is named to people (the listing page, the account page, the guides' table). */
export const PAID_STYLE_NAMES: Record<PaidStyle, string> = {
  "agora-kit": "Agora provider kit",
  "x402-mcp": "x402 MCP transport",
  "cloudflare-agents": "Cloudflare Agents SDK (x402)",
  "vercel-x402-mcp": "Vercel x402-mcp",
  mcpay: "MCPay",
  "jsonrpc-402": "x402 JSON-RPC 402",
  "monetized-mcp": "MonetizedMCP",
};

export const CLOUDFLARE_PAID_META = "agents-x402/paymentRequired";
export const CLOUDFLARE_PRICE_META = "agents-x402/priceUSD";
export const CLOUDFLARE_ERROR_META = "x402/error";
export const VERCEL_PAYMENT_META = "x402.payment";
export const VERCEL_PAYMENT_RESPONSE_META = "x402.payment-response";
export const KIT_PRICE_META = "x402/price";
/**
 * The key of an MCP Registry entry's `_meta` (server.json's own, or inside the official registry's
 * `io.modelcontextprotocol.registry/publisher-provided` block) that names the server's paid tools: a list of tool
 * names. It says what x402's MCP transport does not say in tools/list. Agora writes it in the entries it serves and
 * reads it in the registries it ingests (its namespace is Agora's registry namespace).
 */
export const REGISTRY_PAID_TOOLS_META = "dev.agora-mcp/paid-tools";
/** x402's MCP transport: a JSON-RPC error with this code carries PaymentRequired in `data`. */
export const PAYMENT_REQUIRED_CODE = 402;

/**
 * tools/list read as the server sent it. The MCP SDK clients' own listTools drop annotation keys the specification
 * does not name, and Vercel's and MCPay's paid signals live in such keys: readers ask with this schema instead.
 */
export const toolsListAnswerSchema = z.looseObject({
  tools: z
    .array(
      z.looseObject({
        name: z.string().max(256),
        description: z.string().optional().catch(undefined),
        inputSchema: z.unknown().optional(),
        _meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
        annotations: z.record(z.string(), z.unknown()).optional().catch(undefined),
      }),
    )
    .max(1_000),
  nextCursor: z.string().max(1_000).optional().catch(undefined),
});

/** A tool as tools/list shows it (only what the styles read). */
export type ListedTool = { name: string; description?: string | null; annotations?: unknown; _meta?: unknown };

/** Why Agora believes a tool is paid before calling it. Only a tool with a reason is ever called unpaid. */
export type PaidReason =
  | "kit-meta" // _meta["x402/price"]: Agora's kit
  | "cloudflare-meta" // _meta["agents-x402/paymentRequired"]: true
  | "payment-hint" // annotations.paymentHint: true (Vercel's x402-mcp)
  | "x402-meta" // another _meta key in x402's namespace
  | "description" // the description says so in the documented form (DESCRIPTION_SAYS_PAID)
  | "owner" // the listing's owner named it at submission
  | "discovery" // an x402 discovery entry (Bazaar, type "mcp") names it
  | "registry"; // the registry entry's _meta names it

/** What the probe found for one paid tool (stored with the tool; the account page shows it). */
export type ToolPayment = {
  reason: PaidReason;
  style?: PaidStyle;
  x402Version?: number;
  /** priced: listed with its price; no-ask: answered without asking; unreadable: no offer Agora can pay; unstable: asked other terms twice; failed: the call failed. */
  status: "priced" | "no-ask" | "unreadable" | "unstable" | "failed";
  offers?: { scheme: PaymentScheme; network: string; units: string; payTo: string }[];
  refused?: { index: number; reason: string }[];
  note?: string;
};

export type PaidSignal = { reason: PaidReason; style?: PaidStyle; priceUsd?: string };

/**
 * The documented form of a description that says its tool is paid: "x402" next to "paid"/"payment", e.g.
 * "Paid tool (x402)", "x402-paid", "Requires x402 payment". A description that only mentions x402 is not enough.
 */
export const DESCRIPTION_SAYS_PAID =
  /\bx402[- ]paid\b|\bpaid\b[^.\n]{0,40}\bx402\b|\bx402\b[^.\n]{0,20}\bpayment required\b|\brequires x402 payment\b/i;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** What tools/list alone says about a tool's price: the reason it is paid, and the style when the signal names one. */
export function paidSignal(tool: ListedTool): PaidSignal | undefined {
  const meta = record(tool._meta) ?? {};
  if (meta[KIT_PRICE_META] !== undefined) return { reason: "kit-meta", style: "agora-kit" };
  if (meta[CLOUDFLARE_PAID_META] === true) {
    const price = meta[CLOUDFLARE_PRICE_META];
    return {
      reason: "cloudflare-meta",
      style: "cloudflare-agents",
      ...(typeof price === "string" || typeof price === "number" ? { priceUsd: String(price).slice(0, 20) } : {}),
    };
  }
  const annotations = record(tool.annotations);
  if (annotations?.paymentHint === true) {
    // MCPay's handler adds its price and version beside the hint; Vercel's x402-mcp gives the hint alone.
    const price = annotations.paymentPriceUSD;
    if (price !== undefined || annotations.paymentVersion !== undefined) {
      return {
        reason: "payment-hint",
        style: "mcpay",
        ...(typeof price === "string" || typeof price === "number" ? { priceUsd: String(price).slice(0, 20) } : {}),
      };
    }
    return { reason: "payment-hint", style: "vercel-x402-mcp" };
  }
  if (Object.keys(meta).some((k) => k.startsWith("x402/") || k.startsWith("x402."))) return { reason: "x402-meta" };
  if (typeof tool.description === "string" && DESCRIPTION_SAYS_PAID.test(tool.description.slice(0, 2_000)))
    return { reason: "description" };
  return undefined;
}

const paymentRequiredSchema = z.object({
  x402Version: z.number().int().min(1).max(2),
  error: z.string().max(2_000).optional(),
  resource: z
    .object({ url: z.string().max(2_000) })
    .passthrough()
    .optional(),
  accepts: z.array(z.record(z.string(), z.unknown())).min(1).max(20),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

const asRequired = (v: unknown): PaymentRequired | undefined => {
  const parsed = paymentRequiredSchema.safeParse(v);
  return parsed.success ? (parsed.data as PaymentRequired) : undefined;
};

function jsonTexts(content: unknown): unknown[] {
  if (!Array.isArray(content)) return [];
  const out: unknown[] = [];
  for (const c of content.slice(0, 4)) {
    const text = record(c)?.type === "text" ? record(c)?.text : undefined;
    if (typeof text !== "string" || text.length > 256 * 1024 || !text.trimStart().startsWith("{")) continue;
    try {
      out.push(JSON.parse(text));
    } catch {
      // not JSON
    }
  }
  return out;
}

/** What an unpaid (or refused) call of a paid tool answered: the PaymentRequired and the style that answered it. */
export type PaymentAsk = { style: PaidStyle; required: PaymentRequired };

/**
 * Reads a tools/call result as a request for payment, in any style. `hint` is the style tools/list suggested (a
 * version 1 answer is Vercel's when the tool carried its paymentHint, MCPay-like x402 otherwise).
 */
export function readPaymentAsk(result: unknown, hint?: PaidStyle): PaymentAsk | undefined {
  const r = record(result);
  if (!r) return undefined;
  const inMeta = asRequired(record(r._meta)?.[CLOUDFLARE_ERROR_META]);
  if (inMeta) return { style: hint === "mcpay" ? "mcpay" : "cloudflare-agents", required: inMeta };
  for (const candidate of [r.structuredContent, ...jsonTexts(r.content)]) {
    const required = asRequired(candidate);
    if (!required) continue;
    if (hint === "agora-kit" || hint === "cloudflare-agents") return { style: hint, required };
    if (required.x402Version === 1 && hint === "vercel-x402-mcp") return { style: "vercel-x402-mcp", required };
    return { style: "x402-mcp", required };
  }
  return undefined;
}

/** A JSON-RPC error (as the MCP SDK's McpError or a raw `{code, data}`) that is x402's "402 Payment Required". */
export function readPaymentAskError(error: unknown): PaymentAsk | undefined {
  const e = record(error);
  if (!e || e.code !== PAYMENT_REQUIRED_CODE) return undefined;
  const required = asRequired(e.data);
  return required ? { style: "jsonrpc-402", required } : undefined;
}

// Bounds on what an offer may say before Agora stores or pays it: a price no tool call costs, an `extra` that is
// a payload of its own, a timeout of days.
/** The most one call may cost, in USDC units ($100,000): anything above is refused as unreadable. */
export const MAX_OFFER_UNITS = 100_000_000_000n;
const MAX_EXTRA_BYTES = 2_048;
// A version 1 offer also carries the resource, its description and an output schema: kept whole, so bounded whole.
const MAX_V1_OFFER_BYTES = 8_192;

export type ReadOffer =
  | { ok: true; version: 1; requirements: PaymentRequirementsV1; units: bigint }
  | { ok: true; version: 2; requirements: PaymentRequirementsV2; units: bigint };
export type UnreadOffer = { ok: false; index: number; reason: string };

const safeText = (v: unknown, max: number) =>
  typeof v === "string" ? v.replace(/[\u0000-\u001f\u007f<>]/g, " ").slice(0, max) : undefined;

/**
 * Every offer of a PaymentRequired, each either readable (exact scheme, a known network's USDC, a payee address,
 * a bounded amount and `extra`) or refused with the reason in words. Nothing is rewritten: a readable offer is the
 * server's own requirements, so a client pays exactly what the server asked.
 */
export function readOffers(required: PaymentRequired): (ReadOffer | UnreadOffer)[] {
  return (required.accepts as Record<string, unknown>[]).map((raw, index): ReadOffer | UnreadOffer => {
    const refuse = (reason: string): UnreadOffer => ({ ok: false, index, reason });
    const scheme = safeText(raw.scheme, 40) ?? "(none)";
    if (scheme !== "exact" && scheme !== "upto" && scheme !== "batch-settlement")
      return refuse(`scheme "${scheme}" is not one Agora pays yet`);
    const network = findNetwork(typeof raw.network === "string" ? raw.network : undefined);
    if (!network) return refuse(`network "${safeText(raw.network, 40) ?? "(none)"}" is not one Agora knows`);
    if (typeof raw.asset !== "string" || raw.asset.toLowerCase() !== network.asset.toLowerCase())
      return refuse(`asset is not USDC on ${network.label}`);
    if (typeof raw.payTo !== "string" || !EVM_ADDRESS.test(raw.payTo)) return refuse("payee is not an address");
    const amountField =
      typeof raw.amount === "string"
        ? raw.amount
        : typeof raw.maxAmountRequired === "string"
          ? raw.maxAmountRequired
          : undefined;
    if (amountField === undefined || !/^\d{1,40}$/.test(amountField))
      return refuse("amount is not an integer of the token's units");
    const units = BigInt(amountField);
    if (units === 0n) return refuse("amount is zero");
    if (units > MAX_OFFER_UNITS) return refuse("amount is above $100,000 for one call");
    const extra = record(raw.extra) ?? {};
    if (JSON.stringify(extra).length > MAX_EXTRA_BYTES) return refuse(`extra is larger than ${MAX_EXTRA_BYTES} bytes`);
    const timeout =
      typeof raw.maxTimeoutSeconds === "number" && Number.isInteger(raw.maxTimeoutSeconds)
        ? raw.maxTimeoutSeconds
        : undefined;
    if (timeout === undefined || timeout <= 0 || timeout > 86_400)
      return refuse("maxTimeoutSeconds is not between 1 s and a day");
    if (scheme === "upto") {
      // Metered (x402 version 2 only): `amount` is the most the call may cost, settled through the facilitator the
      // buyer's signature names.
      if (typeof raw.amount !== "string") return refuse("an upto offer must be x402 version 2");
      if (typeof extra.facilitatorAddress !== "string" || !EVM_ADDRESS.test(extra.facilitatorAddress))
        return refuse("an upto offer names no facilitatorAddress");
    }
    if (scheme === "batch-settlement") {
      // A payment channel (x402 version 2 only): `amount` is the price of one call, paid by a voucher on a deposit the
      // receiver's authorizer co-signs claims and refunds for.
      if (typeof raw.amount !== "string") return refuse("a batch-settlement offer must be x402 version 2");
      if (typeof extra.receiverAuthorizer !== "string" || !EVM_ADDRESS.test(extra.receiverAuthorizer))
        return refuse("a batch-settlement offer names no receiverAuthorizer");
    }
    if (typeof raw.amount === "string") {
      if (raw.network !== network.caip2)
        return refuse(`a version 2 offer names its network "${safeText(raw.network, 40)}", not CAIP-2`);
      return {
        ok: true,
        version: 2,
        units,
        requirements: {
          scheme,
          network: network.caip2,
          asset: raw.asset,
          amount: amountField,
          payTo: raw.payTo,
          maxTimeoutSeconds: timeout,
          extra,
        },
      };
    }
    if (raw.extra !== undefined && !record(raw.extra)) return refuse("extra is not an object");
    if (JSON.stringify(raw).length > MAX_V1_OFFER_BYTES)
      return refuse(`a version 1 offer is larger than ${MAX_V1_OFFER_BYTES} bytes`);
    // Exactly the server's object: every field read above is the value it holds (extra may be absent).
    return { ok: true, version: 1, units, requirements: raw as unknown as PaymentRequirementsV1 };
  });
}

/** The `_meta` a paid retry carries, in the encoding the answering style expects. */
export function paymentMeta(style: PaidStyle, payment: OutgoingPayment): Record<string, unknown> {
  const base64 = (p: unknown) => Buffer.from(JSON.stringify(p), "utf8").toString("base64");
  switch (style) {
    case "vercel-x402-mcp":
      return { [VERCEL_PAYMENT_META]: payment.x402Version === 1 ? encodePaymentV1(payment) : base64(payment) };
    case "cloudflare-agents":
    case "mcpay":
      return { [X402_PAYMENT_META]: payment.x402Version === 1 ? encodePaymentV1(payment) : base64(payment) };
    default:
      // x402's transport: version 2 sends the object, version 1 servers (MCPay) the base64 string.
      return { [X402_PAYMENT_META]: payment.x402Version === 1 ? encodePaymentV1(payment) : payment };
  }
}

const settlementSchema = z.object({
  success: z.boolean(),
  transaction: z.string().max(200),
  network: z.string().max(80),
  payer: z.string().max(80).optional(),
  errorReason: z.string().max(300).optional(),
  /** What an upto settlement moved (x402 version 2's SettleResponse.amount). */
  amount: z
    .string()
    .regex(/^\d{1,40}$/)
    .optional(),
  /** The scheme's own fields (a payment channel's running total after the call). */
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** The settlement a paid result carries, under either spelling of its key, as an object or base64 of its JSON. */
export function readSettlement(meta: unknown): SettlementResponse | undefined {
  const m = record(meta);
  if (!m) return undefined;
  for (const key of [X402_PAYMENT_RESPONSE_META, VERCEL_PAYMENT_RESPONSE_META]) {
    let value = m[key];
    if (typeof value === "string" && value.length < 8_192) {
      try {
        value = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
      } catch {
        continue;
      }
    }
    const parsed = settlementSchema.safeParse(value);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}
