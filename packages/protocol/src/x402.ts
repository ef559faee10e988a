// x402 payment requirements and payloads, versions 1 and 2, and their binding to MCP tool calls.
// Shapes follow the x402 specifications; they are structurally the types of @x402/core.
import { z } from "zod";
import { EVM_ADDRESS, type PaymentNetwork } from "./networks.js";

export const X402_PAYMENT_META = "x402/payment";
export const X402_PAYMENT_RESPONSE_META = "x402/payment-response";
/** How long a signed authorisation may take to settle (x402's maxTimeoutSeconds). */
export const DEFAULT_MAX_TIMEOUT_SECONDS = 300;

export type PaymentRequirementsV1 = {
  scheme: "exact";
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  outputSchema?: Record<string, unknown>;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra: Record<string, unknown>;
};

/** A CAIP-2 chain id ("eip155:84532"): x402 version 2 names networks so (@x402/core's `Network`). */
export type Caip2Network = `${string}:${string}`;

/**
 * How a payment moves: `exact` (an EIP-3009 authorisation for the price), `upto` (x402's metered scheme, version 2
 * only: a Permit2 signature for a maximum, of which the server settles what the call used, zero included) or
 * `batch-settlement` (x402's payment channels, version 2 only: a deposit once, then a voucher per call at the price).
 */
export type PaymentScheme = "exact" | "upto" | "batch-settlement";

export type PaymentRequirementsV2 = {
  scheme: PaymentScheme;
  network: Caip2Network;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
};

export type ResourceInfo = { url: string; description?: string; mimeType?: string };

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, "expected 0x-prefixed hex");
const address = z.string().regex(EVM_ADDRESS, "expected a 0x address");
const uintString = z.string().regex(/^\d{1,78}$/, "expected an integer in a string");

export const exactEvmPayloadSchema = z.object({
  signature: hex,
  authorization: z.object({
    from: address,
    to: address,
    value: uintString,
    validAfter: uintString,
    validBefore: uintString,
    nonce: hex.length(66, "expected a 32-byte nonce"),
  }),
});
export type ExactEvmPayload = z.infer<typeof exactEvmPayloadSchema>;

/** x402's `upto` payload on EVM: a Permit2 transfer of at most `permitted.amount`, witnessed for one payee and facilitator. */
export const uptoEvmPayloadSchema = z.object({
  signature: hex,
  permit2Authorization: z.object({
    from: address,
    permitted: z.object({ token: address, amount: uintString }),
    spender: address,
    nonce: uintString,
    deadline: uintString,
    witness: z.object({ to: address, facilitator: address, validAfter: uintString }),
  }),
});
export type UptoEvmPayload = z.infer<typeof uptoEvmPayloadSchema>;

export function isUptoPayload(payload: ExactEvmPayload | UptoEvmPayload): payload is UptoEvmPayload {
  return "permit2Authorization" in payload;
}

const requirementsV2Schema = z.object({
  scheme: z.string(),
  network: z.templateLiteral([z.string().min(1), ":", z.string().min(1)]),
  asset: z.string(),
  amount: uintString,
  payTo: z.string(),
  maxTimeoutSeconds: z.number(),
  extra: z.record(z.string(), z.unknown()).default({}),
});

export const paymentPayloadV1Schema = z.object({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactEvmPayloadSchema,
});
export const paymentPayloadV2Schema = z.object({
  x402Version: z.literal(2),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  accepted: requirementsV2Schema,
  payload: z.union([exactEvmPayloadSchema, uptoEvmPayloadSchema]),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentPayloadV1 = z.infer<typeof paymentPayloadV1Schema>;
export type PaymentPayloadV2 = z.infer<typeof paymentPayloadV2Schema>;
export type PaymentPayload = PaymentPayloadV1 | PaymentPayloadV2;

const paymentPayloadSchema = z.discriminatedUnion("x402Version", [paymentPayloadV1Schema, paymentPayloadV2Schema]);

/**
 * A payment as a client sends it, in either version and whatever its scheme's payload: @x402/core's PaymentPayload,
 * the payload its version 1 signer makes, and this file's PaymentPayload all are one.
 */
export type OutgoingPayment = { x402Version: number; payload: Record<string, unknown> };

/** Version 1 carries the payment as base64 of its JSON (MonetizedMCP's `signedTransaction`, the X-PAYMENT header). */
export function encodePaymentV1(payment: OutgoingPayment): string {
  return Buffer.from(JSON.stringify(payment), "utf8").toString("base64");
}

export type DecodedPayment = { ok: true; payment: PaymentPayload } | { ok: false; error: string };

/** A payment in any form a client sends it: base64 of JSON, JSON text, or the object itself. */
export function decodePayment(input: unknown): DecodedPayment {
  let value = input;
  if (typeof value === "string") {
    const text = value.trim();
    if (text.length === 0) return { ok: false, error: "The payment is empty" };
    if (text.length > 16_384) return { ok: false, error: "The payment is too large" };
    let json = text;
    if (!text.startsWith("{")) {
      if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return { ok: false, error: "The payment is neither base64 nor JSON" };
      json = Buffer.from(text, "base64").toString("utf8");
    }
    try {
      value = JSON.parse(json);
    } catch {
      return { ok: false, error: "The payment does not decode to JSON" };
    }
  }
  const parsed = paymentPayloadSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: `The payment is malformed${issue ? ` at ${issue.path.join(".") || "top level"}: ${issue.message}` : ""}`,
    };
  }
  return { ok: true, payment: parsed.data };
}

export type RequirementsInput = {
  network: PaymentNetwork;
  /** Price in USDC units. */
  units: bigint;
  payTo: string;
  resource: ResourceInfo;
  maxTimeoutSeconds?: number;
  /** `upto`: `units` is the most a call may cost (version 2 only; the version 1 shape stays exact). */
  scheme?: PaymentScheme;
  /** Added to the token's EIP-712 domain in `extra` (upto: the facilitator's `facilitatorAddress`). */
  extra?: Record<string, unknown>;
};

/** What a payment must satisfy, in both versions' shapes: the same price, payee, token and chain. */
export function buildRequirements(input: RequirementsInput): { v1: PaymentRequirementsV1; v2: PaymentRequirementsV2 } {
  const { network, units, payTo, resource } = input;
  if (units <= 0n) throw new Error("x402 cannot carry a zero or negative amount");
  const maxTimeoutSeconds = input.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS;
  const extra = { name: network.eip712.name, version: network.eip712.version, ...input.extra };
  return {
    v1: {
      scheme: "exact",
      network: network.v1Network,
      maxAmountRequired: units.toString(),
      resource: resource.url,
      description: resource.description ?? "",
      mimeType: resource.mimeType ?? "application/json",
      payTo,
      maxTimeoutSeconds,
      asset: network.asset,
      extra,
    },
    v2: {
      scheme: input.scheme ?? "exact",
      network: network.caip2,
      asset: network.asset,
      amount: units.toString(),
      payTo,
      maxTimeoutSeconds,
      extra,
    },
  };
}

/** The answer to an unpaid call of an x402-paid tool (x402 v2 PaymentRequired). */
export type PaymentRequired = {
  x402Version: number;
  error?: string;
  resource?: ResourceInfo;
  accepts: (PaymentRequirementsV2 | PaymentRequirementsV1)[];
  extensions?: Record<string, unknown>;
};

const paymentRequiredSchema = z.object({
  x402Version: z.number().int().min(1).max(2),
  error: z.string().optional(),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  accepts: z.array(z.record(z.string(), z.unknown())).min(1),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

export type X402Accept =
  { version: 1; requirements: PaymentRequirementsV1 } | { version: 2; requirements: PaymentRequirementsV2 };

/** The readable payment requirements of a PaymentRequired answer, each tagged with its version. */
export function readAccepts(required: PaymentRequired): X402Accept[] {
  const accepts: X402Accept[] = [];
  for (const raw of required.accepts as Record<string, unknown>[]) {
    if (typeof raw.amount === "string" && /^\d+$/.test(raw.amount)) {
      const parsed = requirementsV2Schema.safeParse(raw);
      if (parsed.success) accepts.push({ version: 2, requirements: { ...parsed.data, scheme: "exact" } });
    } else if (typeof raw.maxAmountRequired === "string" && /^\d+$/.test(raw.maxAmountRequired)) {
      accepts.push({ version: 1, requirements: raw as unknown as PaymentRequirementsV1 });
    }
  }
  return accepts.filter((a) => a.requirements.scheme === "exact");
}

/** A tool result that is an x402 PaymentRequired (structuredContent, or JSON in the first text item). */
export function readPaymentRequired(result: unknown): PaymentRequired | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const r = result as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  const candidates: unknown[] = [r.structuredContent];
  if (Array.isArray(r.content)) {
    for (const c of r.content) {
      if (c && typeof c === "object" && (c as { type?: unknown }).type === "text") {
        try {
          candidates.push(JSON.parse(String((c as { text?: unknown }).text)));
        } catch {
          // not JSON
        }
      }
    }
  }
  for (const candidate of candidates) {
    const parsed = paymentRequiredSchema.safeParse(candidate);
    if (parsed.success) return parsed.data as PaymentRequired;
  }
  return undefined;
}

/** The settlement an x402-paid tool result carries in `_meta["x402/payment-response"]`. */
/** `amount`: what an `upto` settlement moved, in the token's units ("0" when the call used nothing and no transaction ran). */
export type SettlementResponse = {
  success: boolean;
  transaction: string;
  network: string;
  payer?: string;
  errorReason?: string;
  amount?: string;
  extra?: Record<string, unknown>;
};

const settlementSchema = z.object({
  success: z.boolean(),
  transaction: z.string(),
  network: z.string(),
  payer: z.string().optional(),
  errorReason: z.string().optional(),
  amount: uintString.optional(),
});

export function readSettlementResponse(meta: unknown): SettlementResponse | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const parsed = settlementSchema.safeParse((meta as Record<string, unknown>)[X402_PAYMENT_RESPONSE_META]);
  return parsed.success ? parsed.data : undefined;
}
