// A channel item's terms are checked at start: a typo fails loudly, naming the item and the setting.
import { describe, expect, it } from "vitest";
import { ConfigError, createMonetizedServer, type ItemDefinition } from "@agora-mcp/server";

const WALLET = "0x000000000000000000000000000000000000dEaD";
const item = (over: Partial<ItemDefinition>): ItemDefinition => ({
  id: "lookup",
  name: "Lookup",
  description: "Looks up",
  price: "0.001",
  handler: () => "ok",
  ...over,
});
const start = (over: Partial<ItemDefinition>) => () =>
  createMonetizedServer({
    name: "t",
    walletAddress: WALLET,
    facilitatorUrl: "http://127.0.0.1:9",
    items: [item(over)],
  });

describe("channel items", () => {
  it("takes the defaults with channel: true", () => {
    const server = createMonetizedServer({
      name: "t",
      walletAddress: WALLET,
      facilitatorUrl: "http://127.0.0.1:9",
      items: [item({ channel: true })],
    });
    expect(server.settings.items[0]!.channel).toEqual({ claimEvery: 50, claimIntervalSeconds: 300 });
  });

  it("reads minDeposit in dollars, as token units", () => {
    const server = createMonetizedServer({
      name: "t",
      walletAddress: WALLET,
      facilitatorUrl: "http://127.0.0.1:9",
      items: [item({ channel: { claimEvery: 10, minDeposit: "0.05" } })],
    });
    expect(server.settings.items[0]!.channel).toEqual({
      claimEvery: 10,
      claimIntervalSeconds: 300,
      minDeposit: 50_000n,
    });
  });

  it("refuses terms no channel can keep", () => {
    expect(start({ channel: true, price: 0 })).toThrow(ConfigError);
    expect(start({ channel: true, x402Tool: false })).toThrow(/is sold through channels: give it a price above 0/);
    expect(start({ channel: true, metered: true })).toThrow(/cannot be metered or asynchronous/);
    expect(start({ channel: { claimEvery: 0 } })).toThrow(
      /channel\.claimEvery must be a whole number of calls, at least 1/,
    );
    expect(start({ channel: { claimIntervalSeconds: 0 } })).toThrow(/channel\.claimIntervalSeconds must be at least 1/);
    expect(start({ channel: { minDeposit: "0.0001" } })).toThrow(/channel\.minDeposit must cover at least one call/);
  });
});
