// @agora-mcp/protocol paid-styles.ts: how each library's paid tool is recognised, asked, paid and settled, and
// what an offer may say before Agora lists or pays it. The wire shapes below are those the libraries' own code
// sends (x402's @x402/mcp paymentWrapper, agents 0.32 agents/x402, x402-mcp 0.0.5, x402's JSON-RPC 402).
import { describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA,
  paidSignal,
  paymentMeta,
  readOffers,
  readPaymentAsk,
  readPaymentAskError,
  readSettlement,
  type PaymentPayloadV1,
  type PaymentPayloadV2,
  type PaymentRequired,
} from "@agora-mcp/protocol";

const PAYEE = "0x1111111111111111111111111111111111111111";
const v2Offer = (over: Record<string, unknown> = {}) => ({
  scheme: "exact",
  network: "eip155:84532",
  asset: BASE_SEPOLIA.asset,
  amount: "10000",
  payTo: PAYEE,
  maxTimeoutSeconds: 300,
  extra: { name: "USDC", version: "2" },
  ...over,
});
const v1Offer = {
  scheme: "exact",
  network: "base-sepolia",
  maxAmountRequired: "10000",
  resource: "mcp://tool/weather",
  description: "",
  mimeType: "application/json",
  payTo: PAYEE,
  maxTimeoutSeconds: 300,
  asset: BASE_SEPOLIA.asset,
  extra: { name: "USDC", version: "2" },
};
const required = (accepts: unknown[], x402Version = 2): PaymentRequired => ({
  x402Version,
  error: "Payment required",
  resource: { url: "mcp://tool/weather" },
  accepts: accepts as PaymentRequired["accepts"],
});

describe("the paid signal in tools/list", () => {
  it("reads each library's own mark, and nothing from a tool that says nothing", () => {
    expect(paidSignal({ name: "a", _meta: { "x402/price": { amount: "10000" } } })).toEqual({
      reason: "kit-meta",
      style: "agora-kit",
    });
    expect(
      paidSignal({ name: "b", _meta: { "agents-x402/paymentRequired": true, "agents-x402/priceUSD": "$0.01" } }),
    ).toEqual({ reason: "cloudflare-meta", style: "cloudflare-agents", priceUsd: "$0.01" });
    expect(paidSignal({ name: "c", annotations: { paymentHint: true } })).toEqual({
      reason: "payment-hint",
      style: "vercel-x402-mcp",
    });
    expect(paidSignal({ name: "d", description: "Weather for a city. Paid tool (x402), $0.01 per call." })).toEqual({
      reason: "description",
    });
    expect(paidSignal({ name: "e", description: "Explains how x402 works." })).toBeUndefined();
    expect(
      paidSignal({ name: "f", annotations: { paymentHint: "yes" }, _meta: { "agents-x402/paymentRequired": "true" } }),
    ).toBeUndefined();
    expect(paidSignal({ name: "g" })).toBeUndefined();
  });
});

describe("the unpaid answer", () => {
  it("x402's MCP transport: isError with PaymentRequired in structuredContent and as text", () => {
    const body = required([v2Offer()]);
    const ask = readPaymentAsk({
      isError: true,
      structuredContent: body,
      content: [{ type: "text", text: JSON.stringify(body) }],
    });
    expect(ask?.style).toBe("x402-mcp");
    expect(ask?.required.accepts).toHaveLength(1);
  });

  it("Cloudflare's agents: the payload in _meta['x402/error']", () => {
    const body = required([v2Offer()]);
    const ask = readPaymentAsk(
      { isError: true, _meta: { "x402/error": body }, content: [{ type: "text", text: JSON.stringify(body) }] },
      "cloudflare-agents",
    );
    expect(ask?.style).toBe("cloudflare-agents");
  });

  it("Vercel's x402-mcp: version 1 in structuredContent, read as Vercel's when the tool carried paymentHint", () => {
    const body = { x402Version: 1, error: "_meta.x402.payment is required", accepts: [v1Offer] };
    expect(
      readPaymentAsk(
        { isError: true, structuredContent: body, content: [{ type: "text", text: JSON.stringify(body) }] },
        "vercel-x402-mcp",
      )?.style,
    ).toBe("vercel-x402-mcp");
  });

  it("JSON-RPC error 402 with PaymentRequired in data; other errors are not asks", () => {
    expect(readPaymentAskError({ code: 402, message: "Payment required", data: required([v2Offer()]) })?.style).toBe(
      "jsonrpc-402",
    );
    expect(
      readPaymentAskError({ code: -32602, message: "Invalid params", data: required([v2Offer()]) }),
    ).toBeUndefined();
    expect(readPaymentAskError({ code: 402, data: { accepts: [] } })).toBeUndefined();
  });

  it("a tool that ran and answered is not an ask", () => {
    expect(readPaymentAsk({ content: [{ type: "text", text: "Sunny, 21 °C" }] })).toBeUndefined();
    expect(readPaymentAsk({ content: [{ type: "text", text: '{"x402Version": 2, "accepts": []}' }] })).toBeUndefined();
  });
});

describe("offers", () => {
  it("reads a good offer in either version as the server sent it", () => {
    const [v2, v1] = readOffers(required([v2Offer(), v1Offer]));
    expect(v2).toMatchObject({
      ok: true,
      version: 2,
      units: 10_000n,
      requirements: { amount: "10000", payTo: PAYEE, extra: { name: "USDC", version: "2" } },
    });
    expect(v1).toMatchObject({
      ok: true,
      version: 1,
      units: 10_000n,
      requirements: { maxAmountRequired: "10000", network: "base-sepolia" },
    });
  });

  it("keeps a version 1 offer exactly as the server sent it (x402 discovery lists it so), bounded whole", () => {
    const own = { ...v1Offer, outputSchema: { input: { type: "mcp" } }, description: "Tomorrow's <b>forecast</b>" };
    const [read] = readOffers(required([own], 1));
    expect(read).toEqual({ ok: true, version: 1, units: 10_000n, requirements: own });
    const { extra: _extra, ...withoutExtra } = v1Offer;
    expect(readOffers(required([withoutExtra], 1))[0]).toMatchObject({ ok: true, requirements: withoutExtra });
    expect(
      readOffers(
        required(
          [
            { ...v1Offer, description: "x".repeat(10_000) },
            { ...v1Offer, extra: "USDC" },
          ],
          1,
        ),
      ).map((o) => (o.ok ? "ok" : o.reason)),
    ).toEqual(["a version 1 offer is larger than 8192 bytes", "extra is not an object"]);
  });

  it("refuses hostile offers, each with its reason, and keeps the good one beside them", () => {
    const offers = readOffers(
      required([
        v2Offer({ amount: "1" + "0".repeat(30) }),
        v2Offer({ network: "eip155:1" }),
        v2Offer({ payTo: "<script>alert(1)</script>" }),
        v2Offer({ extra: { name: "USDC", version: "2", blob: "x".repeat(1_000_000) } }),
        v2Offer({ scheme: "batch-settlement" }),
        v2Offer({ scheme: "upto" }),
        v2Offer({ amount: "0" }),
        v2Offer({ asset: "0x0000000000000000000000000000000000000001" }),
        v2Offer({ maxTimeoutSeconds: 10 ** 9 }),
        v2Offer({ network: "base-sepolia" }),
        v2Offer(),
      ]),
    );
    expect(offers.map((o) => (o.ok ? "ok" : o.reason))).toEqual([
      "amount is above $100,000 for one call",
      'network "eip155:1" is not one Agora knows',
      "payee is not an address",
      "extra is larger than 2048 bytes",
      "a batch-settlement offer names no receiverAuthorizer",
      "an upto offer names no facilitatorAddress",
      "amount is zero",
      "asset is not USDC on Base Sepolia",
      "maxTimeoutSeconds is not between 1 s and a day",
      'a version 2 offer names its network "base-sepolia", not CAIP-2',
      "ok",
    ]);
  });

  it("reads a metered (upto) offer that names its facilitator, its amount as the most a call may cost", () => {
    const facilitatorAddress = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const [offer] = readOffers(
      required([v2Offer({ scheme: "upto", extra: { name: "USDC", version: "2", facilitatorAddress } })]),
    );
    expect(offer).toMatchObject({
      ok: true,
      version: 2,
      requirements: { scheme: "upto", extra: { facilitatorAddress } },
    });
  });

  it("names a hostile scheme or network without its markup", () => {
    const [offer] = readOffers(required([v2Offer({ scheme: "<img src=x onerror=alert(1)>" })]));
    expect(offer).toMatchObject({ ok: false });
    expect(JSON.stringify(offer)).not.toMatch(/<img/);
  });
});

describe("sending the payment and reading the settlement", () => {
  const payload = {
    x402Version: 2,
    accepted: v2Offer(),
    payload: { signature: "0x00", authorization: {} },
  } as unknown as PaymentPayloadV2;
  const payloadV1 = {
    x402Version: 1,
    scheme: "exact",
    network: "base-sepolia",
    payload: { signature: "0x00", authorization: {} },
  } as unknown as PaymentPayloadV1;

  it("puts the payment where each style reads it, in its encoding", () => {
    expect(paymentMeta("x402-mcp", payload)).toEqual({ "x402/payment": payload });
    expect(paymentMeta("jsonrpc-402", payload)).toEqual({ "x402/payment": payload });
    expect(
      JSON.parse(Buffer.from(paymentMeta("cloudflare-agents", payload)["x402/payment"] as string, "base64").toString()),
    ).toEqual(payload);
    expect(
      JSON.parse(Buffer.from(paymentMeta("vercel-x402-mcp", payloadV1)["x402.payment"] as string, "base64").toString()),
    ).toEqual(payloadV1);
    expect(typeof paymentMeta("x402-mcp", payloadV1)["x402/payment"]).toBe("string");
  });

  it("reads the settlement under either key, as an object or base64 JSON", () => {
    const settled = { success: true, transaction: "0xabc", network: "eip155:84532", payer: PAYEE };
    expect(readSettlement({ "x402/payment-response": settled })).toEqual(settled);
    expect(readSettlement({ "x402.payment-response": settled })).toEqual(settled);
    expect(
      readSettlement({ "x402/payment-response": Buffer.from(JSON.stringify(settled)).toString("base64") }),
    ).toEqual(settled);
    expect(readSettlement({ "x402/payment-response": { success: "yes" } })).toBeUndefined();
    expect(readSettlement(undefined)).toBeUndefined();
  });
});
