// What the probe knows about a listing, in the one shape every surface publishes (the marketplace JSON API,
// the MCP tools, server.json's `_meta`). A field added here appears on all of them.
import { z } from "zod";
import type { ListingView } from "@/lib/listings/model";
import { MAKE_PURCHASE_TOOL } from "@/lib/probe/types";
import { findNetwork, PAID_STYLE_NAMES, PAID_STYLES } from "@agora-mcp/protocol";
import { paymentStyleOf } from "./payment-style";
import { salesFacts, salesFactsSchema } from "./sales-facts";
import { testPurchaseSchema } from "@/lib/listings/test-purchase-view";

const toolPriceSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  priceUsd: z
    .number()
    .nullable()
    .describe("USD per call of the cheapest item bought through this tool; null when nothing on it is priced."),
  paymentMethods: z.array(z.string()).describe("Ids of the payment methods this tool accepts, e.g. USDC_BASE_SEPOLIA."),
});

const pricedItemSchema = z.object({
  id: z.string().nullable().describe("The id make-purchase takes, when the server gives one."),
  name: z.string(),
  description: z.string().nullable(),
  priceUsd: z.number().describe("Price of one call, in the currency below; 0 for a free item."),
  currency: z.string(),
  paymentMethod: z.string().nullable(),
  toolName: z.string().describe("The tool the item is bought through (make-purchase unless the server names another)."),
  style: z
    .enum(PAID_STYLES)
    .nullable()
    .describe(
      "How this item's tool asks for and takes payment, as the latest check read it (see paymentStyle); null when not read.",
    ),
  scheme: z
    .enum(["exact", "upto"])
    .describe(
      "How the price is paid: exact (the price, every call) or upto (metered: priceUsd is the most a call may cost; the server settles what the call used).",
    ),
});

const paymentMethodSchema = z.object({
  id: z.string().describe("Payment method id, e.g. USDC_BASE_SEPOLIA."),
  network: z.string().nullable().describe("Chain, e.g. base-sepolia."),
  asset: z.string().nullable().describe("Token, e.g. USDC."),
  payTo: z.string().nullable().describe("The provider's receiving wallet address."),
});

const verificationSchema = z.object({
  status: z.enum(["passed", "failed"]),
  checkedAt: z.string().describe("ISO 8601 time of the check."),
  message: z.string().nullable(),
});

const uptimeSchema = z.object({
  percent: z
    .number()
    .nullable()
    .describe("Share of the last 30 days' checks that reached the server; null without checks."),
  checks: z.number().int(),
  medianLatencyMs: z.number().nullable().describe("Median MCP handshake time of the checks that reached it."),
});

const driftSchema = z.object({
  kind: z.enum(["price", "wallet", "tools"]),
  subject: z.string().describe("The priced item or payment method that changed; empty for the tool set."),
  approved: z.string().describe("What was approved."),
  found: z.string().describe("What the check found instead."),
  held: z
    .boolean()
    .describe(
      "Held for review: the change (a price rise past the review factor, another payee) was not applied; the listing kept its approved terms, without Verified, until a reviewer approved it.",
    ),
  detectedAt: z.string().describe("ISO 8601 time of the check that found it."),
});

const deliverySchema = z.object({
  delivered: z
    .number()
    .int()
    .describe(
      "Purchases (Agora's test purchases and buyers' signed receipts) that were paid for and delivered a good result.",
    ),
  failedUncharged: z
    .number()
    .int()
    .describe(
      "Test purchases that failed without costing anything: the server refused the payment, or its tool failed and the payment was not used.",
    ),
  failedCharged: z
    .number()
    .int()
    .describe(
      "Purchases (test purchases and buyers' signed receipts) that failed after the money moved (or may have): paid, and nothing good came back.",
    ),
  buyerReceipts: z
    .object({
      delivered: z.number().int().describe("Buyers' signed receipts saying the paid call delivered."),
      failedCharged: z
        .number()
        .int()
        .describe("Buyers' signed receipts saying they were charged and nothing good came back."),
    })
    .optional()
    .describe(
      "How many of the counts above came from buyers' signed receipts (each checked against its payment on chain); absent when there were none.",
    ),
});

/** Liveness: small enough for every search result. */
export const statusFactsSchema = z.object({
  lastCheckedAt: z
    .string()
    .nullable()
    .describe("When Agora last probed the server (ISO 8601); null before the first check."),
  reachable: z.boolean().nullable().describe("Whether that check completed the MCP handshake."),
  uptime30d: uptimeSchema,
  sales: salesFactsSchema,
  testPurchase: testPurchaseSchema
    .nullable()
    .describe(
      "Agora's latest test purchase from this server (it buys from each paid listing on a schedule); null before the first.",
    ),
  delivery30d: deliverySchema.describe(
    "Agora's test purchases from this server and its buyers' signed delivery receipts over the last 30 days, by what came of them; all 0 when there were none.",
  ),
});

/** What the server sells and where the money goes, as the latest check read it. */
const salesTermsSchema = z.object({
  tools: z
    .array(toolPriceSchema)
    .describe("Tools with per-tool prices, as the latest check read them; empty before the first check."),
  pricedItems: z.array(pricedItemSchema).describe("Everything price-listing offered at the latest check."),
  paymentMethods: z.array(paymentMethodSchema).describe("Accepted payment methods and wallets at the latest check."),
  paymentStyle: z
    .enum(PAID_STYLES)
    .nullable()
    .describe(
      `How a paid call is asked for and paid, as the latest check read it: ${PAID_STYLES.map((style) => `${style} (${PAID_STYLE_NAMES[style]})`).join(", ")}; null for a free listing or one not checked yet.`,
    ),
  lastVerification: verificationSchema.nullable().describe("The latest server check; null until one has run."),
  protocolVersion: z
    .string()
    .nullable()
    .describe(
      "The MCP revision the server spoke at the latest check: 2026-07-28 (stateless, no handshake) or a 2025 revision (initialize first); null before a check reached it.",
    ),
  drift: z
    .array(driftSchema)
    .describe(
      "Changes checks found against what was approved (price, payee wallet, tool set), newest first. A held change (held: true) waits for review before any surface shows it.",
    ),
});

export const probeFactsSchema = statusFactsSchema.extend(salesTermsSchema.shape);

type StatusFacts = z.infer<typeof statusFactsSchema>;
export type ProbeFacts = z.infer<typeof probeFactsSchema>;

export function statusFacts(view: ListingView): StatusFacts {
  return {
    lastCheckedAt: view.probe?.checkedAt ?? null,
    reachable: view.probe?.reachable ?? null,
    uptime30d: {
      percent: view.uptime.uptimePct,
      checks: view.uptime.checks,
      medianLatencyMs: view.uptime.medianLatencyMs,
    },
    sales: salesFacts(view.sales),
    testPurchase: view.testPurchase,
    delivery30d: view.delivery30d,
  };
}

function verificationMessage(probe: NonNullable<ListingView["probe"]>): string | null {
  if (probe.verifiable) return null;
  return probe.reachable
    ? "Reachable, but not a MonetizedMCP server that accepts a supported payment method."
    : "The server did not answer.";
}

export function probeFacts(view: ListingView): ProbeFacts {
  const probe = view.probe;
  const items = probe?.pricedItems ?? [];
  const methods = probe?.paymentMethods ?? [];
  const acceptedIds = [...new Set(methods.map((m) => m.paymentMethod))];
  return {
    ...statusFacts(view),
    tools: (probe?.tools ?? []).map((tool) => {
      // The cheapest paid item bought through this tool (a free item does not make a paid tool free).
      const sold = items
        .filter((i) => i.amount > 0 && ((i.toolName ?? MAKE_PURCHASE_TOOL) === tool.name || i.name === tool.name))
        .map((i) => i.amount);
      return {
        name: tool.name,
        description: tool.description,
        priceUsd: sold.length ? Math.min(...sold) : null,
        paymentMethods: sold.length ? acceptedIds : [],
      };
    }),
    pricedItems: items.map((i) => ({
      id: i.id ?? null,
      name: i.name,
      description: i.description ?? null,
      priceUsd: i.amount,
      currency: i.currency,
      paymentMethod: i.paymentMethod ?? null,
      toolName: i.toolName ?? MAKE_PURCHASE_TOOL,
      // An item bought through make-purchase is sold the MonetizedMCP way, whatever the check recorded.
      style: i.style ?? (i.toolName === undefined || i.toolName === MAKE_PURCHASE_TOOL ? "monetized-mcp" : null),
      scheme: i.metered || i.x402Requirements?.scheme === "upto" ? ("upto" as const) : ("exact" as const),
    })),
    paymentMethods: methods.map((m) => {
      const known = findNetwork(m.paymentMethod);
      return {
        id: m.paymentMethod,
        network: known?.v1Network ?? null,
        asset: known ? "USDC" : null,
        payTo: m.walletAddress || null,
      };
    }),
    paymentStyle: paymentStyleOf(probe),
    drift: view.drift,
    protocolVersion: probe?.reachable ? (probe.protocolVersion ?? null) : null,
    lastVerification: probe
      ? {
          status: probe.verifiable ? "passed" : "failed",
          checkedAt: probe.checkedAt,
          message: verificationMessage(probe),
        }
      : null,
  };
}
