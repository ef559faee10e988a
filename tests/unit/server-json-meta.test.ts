import { describe, expect, it } from "vitest";
import type { ListingView } from "@/lib/listings/model";
import { NO_SALES } from "@/db/queries/sales";
import { META_MAX_BYTES, toServerResponse } from "@/lib/listings/presenters/server-json";
import { officialSchema } from "../support/official-registry";

const OURS = "dev.agora-mcp/listing";

function view(tools: number): ListingView {
  const at = "2026-11-01T00:00:00.000Z";
  return {
    id: "00000000-0000-4000-8000-000000000001",
    slug: "big-server",
    name: "Big Server",
    description: "A server with a great many tools.",
    categories: ["Data"],
    price: 0.01,
    verified: true,
    serverUrl: "https://big.example.com/mcp",
    websiteUrl: null,
    createdAt: at,
    updatedAt: at,
    source: "agora",
    upstreamName: null,
    upstreamUrl: null,
    upstreamStatus: null,
    registryName: null,
    probe: {
      checkedAt: at,
      reachable: true,
      verifiable: true,
      latencyMs: 12,
      protocolVersion: "2025-11-25",
      tools: Array.from({ length: tools }, (_, i) => ({
        name: `tool-number-${i}`,
        description: `Does thing number ${i} very well.`,
        inputSchema: { type: "object" },
      })),
      pricedItems: [{ name: "Thing", amount: 0.01, currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA" }],
      paymentMethods: [
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0x1111111111111111111111111111111111111111" },
      ],
    },
    uptime: { uptimePct: 100, medianLatencyMs: 12, checks: 3 },
    drift: [],
    sales: NO_SALES,
    buyerReviews: { count: 0, average: null, latest: [] },
    testPurchase: null,
    delivery30d: { delivered: 0, failedUncharged: 0, failedCharged: 0 },
  };
}

describe("server.json _meta within the official registry's budget", () => {
  it("carries every tool while it fits", () => {
    const meta = toServerResponse(view(5)).server._meta[OURS] as { tools: unknown[]; truncated?: boolean };
    expect(meta.tools).toHaveLength(5);
    expect(meta.truncated).toBeUndefined();
  });

  it("drops the long lists, says so, and keeps the payment facts when they do not fit", () => {
    const entry = toServerResponse(view(200));
    officialSchema.assertServerResponse(JSON.parse(JSON.stringify(entry)));
    const meta = entry.server._meta[OURS] as { tools: unknown[]; paymentMethods: unknown[]; truncated?: boolean };
    expect(Buffer.byteLength(JSON.stringify(meta))).toBeLessThanOrEqual(META_MAX_BYTES);
    expect(meta.truncated).toBe(true);
    expect(meta.tools).toEqual([]);
    expect(meta.paymentMethods).toHaveLength(1);
  });
});
