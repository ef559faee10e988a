import { describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type PricedItem } from "@agora-mcp/protocol";
import { chooseItem } from "@/lib/test-purchases/choose-item";

const payTo = "0x2222222222222222222222222222222222222222";
const tool = (name: string, units: string, scheme: string): PricedItem =>
  ({
    name,
    toolName: name,
    amount: Number(units) / 1e6,
    units,
    currency: "USDC",
    x402Requirements: {
      scheme,
      network: BASE_SEPOLIA.caip2,
      asset: BASE_SEPOLIA.asset,
      amount: units,
      payTo,
      maxTimeoutSeconds: 60,
      extra: {},
    },
  }) as PricedItem;
const schema = { type: "object", properties: { word: { type: "string", examples: ["agent"] } }, required: ["word"] };

describe("chooseItem", () => {
  it("passes over an item sold through a payment channel, however cheap: a test purchase has no channel to keep", () => {
    const items = [tool("lookup", "1000", "batch-settlement"), tool("summarise", "100000", "upto")];
    const tools = [
      { name: "lookup", inputSchema: schema },
      { name: "summarise", inputSchema: schema },
    ];
    expect(
      chooseItem(items, { network: BASE_SEPOLIA, excluded: new Set(), maxUnits: 100_000n, tools: tools as never }),
    ).toMatchObject({ key: "summarise", units: 100_000n });
    expect(
      chooseItem([items[0]!], {
        network: BASE_SEPOLIA,
        excluded: new Set(),
        maxUnits: 100_000n,
        tools: tools as never,
      }),
    ).toBeNull();
  });
});
