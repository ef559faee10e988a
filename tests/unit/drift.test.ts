import { describe, expect, it } from "vitest";
import { termsOf } from "@/db/queries/drift";
import { findDrift } from "@/lib/listings/checks/drift";

const tool = (name: string) => ({ name, description: null, inputSchema: {} });
const base = {
  tools: ["price-listing", "payment-methods", "make-purchase"].map(tool),
  pricedItems: [
    { name: "Forecast", amount: 0.01, currency: "USDC" },
    { name: "Radar", amount: 0.1, currency: "USDC" },
  ],
  paymentMethods: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0xAbC0000000000000000000000000000000000001" }],
  pricesRead: true,
};
const approved = termsOf(base);

describe("drift against approved terms", () => {
  it("finds nothing when the probe reads what was approved, whatever the wallet's letter case or tool order", () => {
    const same = {
      ...base,
      tools: [...base.tools].reverse(),
      paymentMethods: [
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0xabc0000000000000000000000000000000000001" },
      ],
    };
    expect(findDrift(approved, same)).toEqual([]);
  });

  it("names each changed, added and withdrawn item with both values", () => {
    const probe = {
      ...base,
      pricedItems: [
        { name: "Forecast", amount: 0.02, currency: "USDC" },
        { name: "Alerts", amount: 0.5, currency: "USDC" },
      ],
    };
    expect(findDrift(approved, probe)).toEqual([
      { kind: "price", subject: "Forecast", approved: "0.01 USDC", found: "0.02 USDC" },
      { kind: "price", subject: "Radar", approved: "0.1 USDC", found: "no longer offered" },
      { kind: "price", subject: "Alerts", approved: "not offered", found: "0.5 USDC" },
    ]);
  });

  it("finds a new payee wallet, and a new payment method with its wallet", () => {
    const probe = {
      ...base,
      paymentMethods: [
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0x9990000000000000000000000000000000000009" },
        { paymentMethod: "USDC_BASE_MAINNET", walletAddress: "0x9990000000000000000000000000000000000009" },
      ],
    };
    expect(findDrift(approved, probe).map((f) => [f.kind, f.subject, f.approved, f.found])).toEqual([
      [
        "wallet",
        "USDC_BASE_SEPOLIA",
        "0xabc0000000000000000000000000000000000001",
        "0x9990000000000000000000000000000000000009",
      ],
      ["wallet", "USDC_BASE_MAINNET", "none", "0x9990000000000000000000000000000000000009"],
    ]);
  });

  it("does not count what the probe could not read as a change", () => {
    expect(findDrift(approved, { tools: [], pricedItems: [], paymentMethods: [], pricesRead: false })).toEqual([]);
  });
});
