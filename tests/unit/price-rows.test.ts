import { describe, expect, it } from "vitest";
import type { AcceptedPayment, PaymentRequirementsV2, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import { priceRows } from "@/lib/listings/presenters/price-rows";

// What a check of a provider-kit server records (lib/probe): price-listing's items, each paid one naming its
// x402 tool, then one item per x402-paid tool read from its PaymentRequired, and the tools themselves.
const PAYEE = "0x000000000000000000000000000000000000dEaD";
const SEPOLIA = "eip155:84532";
const requirements = (amount: string, payTo = PAYEE): PaymentRequirementsV2 => ({
  scheme: "exact",
  network: SEPOLIA,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  amount,
  payTo,
  maxTimeoutSeconds: 60,
  extra: {},
});
const kitItem = (id: string, name: string, units: string, x402Tool?: string): PricedItem => ({
  id,
  name,
  description: `${name}, described.`,
  amount: Number(units) / 1e6,
  units,
  currency: "USDC",
  paymentMethod: "USDC_BASE_SEPOLIA",
  ...(x402Tool ? { x402Tool } : {}),
});
const x402Item = (tool: string, units: string, payTo = PAYEE): PricedItem => ({
  name: tool,
  toolName: tool,
  amount: Number(units) / 1e6,
  units,
  currency: "USDC",
  paymentMethod: "USDC_BASE_SEPOLIA",
  x402Requirements: requirements(units, payTo),
});
const tool = (name: string, description: string | null = null): ProbedTool => ({
  name,
  description,
  inputSchema: { type: "object" },
});
const kitTools = [
  tool("price-listing"),
  tool("payment-methods"),
  tool("make-purchase"),
  tool("weather", "Current weather over x402."),
  tool("market-report", "Market report over x402."),
];
const methods: AcceptedPayment[] = [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: PAYEE }];
const summary = (rows: ReturnType<typeof priceRows>) => rows.map((r) => [r.name, r.amount, r.alsoX402Tool]);

describe("the detail page's tools and prices", () => {
  it("list each item of a provider-kit server once, naming the x402 tool that sells it too", () => {
    const pricedItems = [
      kitItem("weather-now", "Current weather", "10000", "weather"),
      kitItem("market-report", "Market report", "250000", "market-report"),
      kitItem("page-screenshot", "Page screenshot", "0"),
      x402Item("weather", "10000"),
      x402Item("market-report", "250000"),
    ];
    const rows = priceRows({ tools: kitTools, pricedItems, paymentMethods: methods });
    expect(summary(rows)).toEqual([
      ["Current weather", 0.01, "weather"],
      ["Market report", 0.25, "market-report"],
      ["Page screenshot", 0, null],
      ["price-listing", null, null],
      ["payment-methods", null, null],
      ["make-purchase", null, null],
    ]);
    expect(rows[1]).toMatchObject({ isTool: false, description: "Market report, described.", currency: "USDC" });
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it("keep two rows when the tool's price or payee is not exactly the item's", () => {
    const pricedItems = [
      kitItem("weather-now", "Current weather", "10000", "weather"),
      kitItem("market-report", "Market report", "250000", "market-report"),
      x402Item("weather", "10001"),
      x402Item("market-report", "250000", "0x1111111111111111111111111111111111111111"),
    ];
    // The check lists the x402 tool's other payee beside payment-methods' wallet.
    const twoPayees = [
      ...methods,
      { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0x1111111111111111111111111111111111111111" },
    ];
    const rows = priceRows({ tools: kitTools, pricedItems, paymentMethods: twoPayees });
    expect(summary(rows).slice(0, 4)).toEqual([
      ["Current weather", 0.01, null],
      ["Market report", 0.25, null],
      ["weather", 0.010001, null],
      ["market-report", 0.25, null],
    ]);
    expect(rows[2]).toMatchObject({ isTool: true, description: "Current weather over x402." });
  });

  it("show a server selling through x402 tools alone by its tools, and a server with no prices by its tools unpriced", () => {
    const onlyX402 = priceRows({
      tools: [tool("weather", "Current weather over x402."), tool("ping")],
      pricedItems: [x402Item("weather", "10000")],
      paymentMethods: methods,
    });
    expect(onlyX402.map((r) => [r.name, r.isTool, r.amount, r.description])).toEqual([
      ["weather", true, 0.01, "Current weather over x402."],
      ["ping", true, null, null],
    ]);
    expect(summary(priceRows({ tools: [tool("search")], pricedItems: [], paymentMethods: [] }))).toEqual([
      ["search", null, null],
    ]);
  });
});
