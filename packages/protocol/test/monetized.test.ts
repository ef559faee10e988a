import { describe, expect, it } from "vitest";
import {
  isVerifiable,
  lowestDollarPrice,
  Quirks,
  readPaymentMethods,
  readPricedItems,
  readToolPayload,
} from "@agora-mcp/protocol";

const WALLET = "0x000000000000000000000000000000000000dEaD";

function read<T>(fn: (payload: unknown, quirks: Quirks) => T, payload: unknown): { value: T; quirks: string[] } {
  const quirks = new Quirks();
  return { value: fn(payload, quirks), quirks: quirks.list() };
}

describe("reading tool answers", () => {
  it("prefers structuredContent and falls back to JSON in a text item", () => {
    const quirks = new Quirks();
    expect(
      readToolPayload("t", { content: [{ type: "text", text: "[1]" }], structuredContent: { a: 1 } }, quirks),
    ).toEqual({ a: 1 });
    expect(
      readToolPayload(
        "t",
        {
          content: [
            { type: "text", text: "Here you go:" },
            { type: "text", text: '{"b":2}' },
          ],
        },
        quirks,
      ),
    ).toEqual({ b: 2 });
    expect(quirks.list()).toEqual([]);
  });

  it("records an error result or a non-JSON answer as a quirk", () => {
    const quirks = new Quirks();
    expect(
      readToolPayload(
        "price-listing",
        { isError: true, content: [{ type: "text", text: "Error getting pricing listing: boom" }] },
        quirks,
      ),
    ).toBeUndefined();
    expect(
      readToolPayload("payment-methods", { content: [{ type: "text", text: "USDC please" }] }, quirks),
    ).toBeUndefined();
    expect(quirks.list()).toEqual([
      "price-listing: returned an error: Error getting pricing listing: boom",
      "payment-methods: answer carries no JSON (USDC please)",
    ]);
  });
});

describe("reading price listings", () => {
  it("reads the reference shape without quirks", () => {
    const { value, quirks } = read(readPricedItems, {
      items: [
        {
          id: "a",
          name: "A",
          description: "first",
          price: { amount: 0.05, currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA" },
        },
      ],
    });
    expect(value).toEqual([
      {
        id: "a",
        name: "A",
        description: "first",
        amount: 0.05,
        units: "50000",
        currency: "USDC",
        paymentMethod: "USDC_BASE_SEPOLIA",
      },
    ]);
    expect(quirks).toEqual([]);
  });

  it("reads {amount, paymentMethod} prices with string amounts, taking the currency from the method", () => {
    const { value, quirks } = read(readPricedItems, {
      items: [{ name: "A", price: { amount: "0.25", paymentMethod: "USDC_BASE_SEPOLIA" } }],
    });
    expect(value).toEqual([
      { name: "A", amount: 0.25, units: "250000", currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA" },
    ]);
    expect(quirks).toEqual(["amounts given as strings", "currency missing; taken from the payment method"]);
  });

  it("reads the older {price, currency} shape and a bare array", () => {
    const { value, quirks } = read(readPricedItems, [
      { name: "Old", description: "d", price: 0.1, currency: "usdc", params: {} },
      { toolName: "render", amount: 2, currency: "USD" },
    ]);
    expect(value).toEqual([
      { name: "Old", description: "d", amount: 0.1, units: "100000", currency: "USDC", params: {} },
      { name: "render", toolName: "render", amount: 2, units: "2000000", currency: "USD" },
    ]);
    expect(quirks).toEqual([
      "price-listing answered a bare array, not {items}",
      "prices given as {price, currency}",
      "prices given as a bare amount on the item",
    ]);
  });

  it("skips items without a usable price and says why", () => {
    const { value, quirks } = read(readPricedItems, {
      items: [{ name: "Free?" }, { name: "Neg", price: -1, currency: "USDC" }, { name: "NaN", price: "abc" }, "junk"],
    });
    expect(value).toEqual([]);
    expect(quirks).toContain('price-listing: "Free?" has no price');
    expect(quirks).toContain('price-listing: "Neg" has an invalid amount');
    expect(quirks).toContain('price-listing: "NaN" has an invalid amount');
    expect(quirks).toContain("price-listing: an item is not an object");
  });

  it("returns null when there is no list at all", () => {
    expect(read(readPricedItems, { hello: "world" })).toEqual({
      value: null,
      quirks: ["price-listing: no list of items found"],
    });
  });

  it("derives the lowest dollar price: null when nothing is priced, undefined when nothing is in dollars", () => {
    expect(lowestDollarPrice([])).toBeNull();
    expect(
      lowestDollarPrice([
        { name: "a", amount: 0.5, currency: "USDC" },
        { name: "b", amount: 0.02, currency: "USD" },
        { name: "c", amount: 0.001, currency: "ETH" },
      ]),
    ).toBe(0.02);
    expect(lowestDollarPrice([{ name: "c", amount: 0.001, currency: "ETH" }])).toBeUndefined();
  });
});

describe("reading payment methods", () => {
  it("reads an array, a wrapped array or one object", () => {
    const method = { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET };
    expect(read(readPaymentMethods, [method])).toEqual({ value: [method], quirks: [] });
    expect(read(readPaymentMethods, { paymentMethods: [method] })).toEqual({ value: [method], quirks: [] });
    expect(read(readPaymentMethods, method)).toEqual({
      value: [method],
      quirks: ["payment-methods answered a single object, not an array"],
    });
  });

  it("accepts other field names and lower case, recording each", () => {
    const { value, quirks } = read(readPaymentMethods, [
      { method: "usdc_base_sepolia", sellerAccountId: "not-a-wallet" },
    ]);
    expect(value).toEqual([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "not-a-wallet" }]);
    expect(quirks).toEqual([
      "payment method named `method`, not `paymentMethod`",
      "wallet not named `walletAddress`",
      "payment method not in upper case",
      'payment-methods: wallet "not-a-wallet" is not a 0x address',
    ]);
  });
});

describe("verifiable", () => {
  const tools = ["price-listing", "payment-methods", "make-purchase"];
  const sepolia = [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: WALLET }];

  it("needs the three tools, a supported payment method with a 0x wallet, and a reachable server", () => {
    expect(isVerifiable(true, tools, sepolia)).toBe(true);
    expect(isVerifiable(true, ["pricing-listing", "payment-methods", "make-purchase"], sepolia)).toBe(true);
    expect(isVerifiable(false, tools, sepolia)).toBe(false);
    expect(isVerifiable(true, ["price-listing", "payment-methods"], sepolia)).toBe(false);
    expect(isVerifiable(true, tools, [{ paymentMethod: "USDC_BASE_MAINNET", walletAddress: WALLET }])).toBe(false);
    expect(isVerifiable(true, tools, [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "me" }])).toBe(false);
  });
});
