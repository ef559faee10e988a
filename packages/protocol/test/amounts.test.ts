import { describe, expect, it } from "vitest";
import {
  AmountError,
  BASE_MAINNET,
  BASE_SEPOLIA,
  buildRequirements,
  decodePayment,
  encodePaymentV1,
  findNetwork,
  formatUsd,
  networkFromSetting,
  parseUnits,
  readAccepts,
  readPaymentRequired,
  readPurchaseResult,
  unitsToUsd,
  usdToUnits,
  type PaymentPayloadV1,
} from "@agora-mcp/protocol";

describe("USDC amounts in units of 6 decimals", () => {
  it("converts dollars exactly at the edges", () => {
    expect(usdToUnits("0.000001")).toBe(1n);
    expect(usdToUnits(0.000001)).toBe(1n);
    expect(usdToUnits(1e-6)).toBe(1n);
    expect(usdToUnits(0.1 + 0.2)).toBe(300_000n);
    expect(usdToUnits("0.02")).toBe(20_000n);
    expect(usdToUnits(0.02)).toBe(20_000n);
    expect(usdToUnits("$1.50")).toBe(1_500_000n);
    expect(usdToUnits(1e6)).toBe(1_000_000_000_000n);
    expect(usdToUnits("1000000")).toBe(1_000_000_000_000n);
    expect(usdToUnits(1e21)).toBe(1_000_000_000_000_000_000_000_000_000n);
    expect(usdToUnits(".5")).toBe(500_000n);
    expect(usdToUnits("0")).toBe(0n);
    expect(usdToUnits(0)).toBe(0n);
  });

  it("refuses what is not a price", () => {
    for (const bad of ["-0.01", "abc", "", "1e5", "0.0000001", "1.2.3", "NaN"])
      expect(() => usdToUnits(bad), bad).toThrow(AmountError);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => usdToUnits(bad)).toThrow(AmountError);
    expect(() => usdToUnits("0.0000001")).toThrow(/6 decimals/);
  });

  it("rounds float noise in JSON numbers to the nearest unit", () => {
    expect(usdToUnits(0.0000004)).toBe(0n);
    expect(usdToUnits(0.0000005)).toBe(1n);
    expect(usdToUnits(1.0000009)).toBe(1_000_001n);
  });

  it("formats units for people and parses x402's integer strings", () => {
    expect(unitsToUsd(20_000n)).toBe("0.02");
    expect(unitsToUsd(1n)).toBe("0.000001");
    expect(unitsToUsd(1_000_000_000_000n)).toBe("1000000.00");
    expect(formatUsd("300000")).toBe("$0.30");
    expect(parseUnits("20000")).toBe(20_000n);
    expect(() => parseUnits("0.02")).toThrow(AmountError);
    expect(() => parseUnits("-1")).toThrow(AmountError);
    for (const units of [0n, 1n, 999_999n, 123_456_789n]) expect(usdToUnits(unitsToUsd(units))).toBe(units);
  });
});

describe("networks", () => {
  it("knows every spelling and takes mainnet only when named", () => {
    for (const name of ["USDC_BASE_SEPOLIA", "base-sepolia", "eip155:84532", 84532])
      expect(findNetwork(name)).toBe(BASE_SEPOLIA);
    for (const name of ["USDC_BASE_MAINNET", "base", "eip155:8453"]) expect(findNetwork(name)).toBe(BASE_MAINNET);
    expect(networkFromSetting(undefined)).toBe(BASE_SEPOLIA);
    expect(networkFromSetting("")).toBe(BASE_SEPOLIA);
    expect(networkFromSetting("base")).toBe(BASE_MAINNET);
    expect(() => networkFromSetting("bsae")).toThrow(/Unknown network/);
    expect(findNetwork("ethereum")).toBeUndefined();
  });
});

const payment: PaymentPayloadV1 = {
  x402Version: 1,
  scheme: "exact",
  network: "base-sepolia",
  payload: {
    signature: `0x${"1b".repeat(65)}`,
    authorization: {
      from: "0x1111111111111111111111111111111111111111",
      to: "0x2222222222222222222222222222222222222222",
      value: "20000",
      validAfter: "0",
      validBefore: "9999999999",
      nonce: `0x${"ab".repeat(32)}`,
    },
  },
};

describe("x402 payloads", () => {
  it("round-trips a version 1 payment through base64 and accepts JSON text or the object", () => {
    const encoded = encodePaymentV1(payment);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodePayment(encoded)).toEqual({ ok: true, payment });
    expect(decodePayment(JSON.stringify(payment))).toEqual({ ok: true, payment });
    expect(decodePayment(payment)).toEqual({ ok: true, payment });
  });

  it("decodes a version 2 payment object", () => {
    const { v2 } = buildRequirements({
      network: BASE_SEPOLIA,
      units: 20_000n,
      payTo: payment.payload.authorization.to,
      resource: { url: "mcp://x" },
    });
    const v2Payment = { x402Version: 2, accepted: v2, payload: payment.payload, resource: { url: "mcp://x" } };
    expect(decodePayment(v2Payment)).toMatchObject({
      ok: true,
      payment: { x402Version: 2, accepted: { amount: "20000", network: "eip155:84532" } },
    });
  });

  it("says what is wrong with a malformed payment", () => {
    expect(decodePayment("")).toEqual({ ok: false, error: "The payment is empty" });
    expect(decodePayment("%%%")).toEqual({ ok: false, error: "The payment is neither base64 nor JSON" });
    expect(decodePayment(Buffer.from("not json").toString("base64"))).toEqual({
      ok: false,
      error: "The payment does not decode to JSON",
    });
    const noNonce = {
      ...payment,
      payload: { ...payment.payload, authorization: { ...payment.payload.authorization, nonce: "0x12" } },
    };
    expect(decodePayment(noNonce)).toMatchObject({
      ok: false,
      error: expect.stringContaining("payload.authorization.nonce"),
    });
    expect(decodePayment({ ...payment, x402Version: 3 })).toMatchObject({ ok: false });
    expect(decodePayment("x".repeat(20_000))).toEqual({ ok: false, error: "The payment is too large" });
  });

  it("builds the same requirements in both versions' shapes and refuses a zero amount", () => {
    const { v1, v2 } = buildRequirements({
      network: BASE_SEPOLIA,
      units: 20_000n,
      payTo: "0x2222222222222222222222222222222222222222",
      resource: { url: "mcp://s#i" },
    });
    expect(v1).toMatchObject({
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "20000",
      resource: "mcp://s#i",
      asset: BASE_SEPOLIA.asset,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    });
    expect(v2).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      amount: "20000",
      asset: BASE_SEPOLIA.asset,
      payTo: "0x2222222222222222222222222222222222222222",
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    });
    expect(() =>
      buildRequirements({ network: BASE_SEPOLIA, units: 0n, payTo: v2.payTo, resource: { url: "x" } }),
    ).toThrow(/zero/);
  });

  it("reads PaymentRequired from structuredContent or text, with both versions' requirements", () => {
    const { v1, v2 } = buildRequirements({
      network: BASE_SEPOLIA,
      units: 5n,
      payTo: "0x2222222222222222222222222222222222222222",
      resource: { url: "x" },
    });
    const body = { x402Version: 2, error: "Payment required", resource: { url: "x" }, accepts: [v2, v1] };
    expect(readPaymentRequired({ isError: true, structuredContent: body })).toEqual(body);
    const fromText = readPaymentRequired({ isError: true, content: [{ type: "text", text: JSON.stringify(body) }] });
    expect(readAccepts(fromText!).map((a) => a.version)).toEqual([2, 1]);
    expect(readPaymentRequired({ content: [{ type: "text", text: "hello" }] })).toBeUndefined();
  });
});

describe("reading make-purchase answers", () => {
  const text = (value: unknown) => ({
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
  });

  it("treats every form of refusal as a failure", () => {
    expect(
      readPurchaseResult({ isError: true, content: [{ type: "text", text: "Payment refused: expired" }] }),
    ).toMatchObject({ ok: false, reason: "Payment refused: expired" });
    expect(readPurchaseResult(text("Error making purchase: invalid signature"))).toMatchObject({
      ok: false,
      reason: "Error making purchase: invalid signature",
    });
    expect(
      readPurchaseResult(text({ purchasableItemId: "a", orderId: "1", toolResult: "Payment failed" })),
    ).toMatchObject({ ok: false, reason: "Payment failed" });
    expect(readPurchaseResult(text({ orderId: "1" }))).toMatchObject({
      ok: false,
      reason: "The server answered without delivering anything",
    });
  });

  it("reads a delivery with its order and settlement", () => {
    const outcome = readPurchaseResult(
      text({ orderId: "ord_1", toolResult: "hi", transaction: "0xabc", network: "eip155:84532", payer: "0x1" }),
    );
    expect(outcome).toMatchObject({ ok: true, orderId: "ord_1", toolResult: "hi", transaction: "0xabc", payer: "0x1" });
  });
});
