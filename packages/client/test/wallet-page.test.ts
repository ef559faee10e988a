import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultWalletFile, loadSettings } from "../src/settings.js";
import { walletPageUrl } from "../src/wallet-page.js";

const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("the wallet page's address", () => {
  it("is the registry's site with /wallet/{address}", () => {
    expect(walletPageUrl("https://agora.example/api", ADDRESS)).toBe(`https://agora.example/wallet/${ADDRESS}`);
    expect(walletPageUrl("http://127.0.0.1:3000/api/", ADDRESS)).toBe(`http://127.0.0.1:3000/wallet/${ADDRESS}`);
    // A site under a path keeps it; a registry URL without /api falls back to its origin.
    expect(walletPageUrl("https://example.org/agora/api", ADDRESS)).toBe(`https://example.org/agora/wallet/${ADDRESS}`);
    expect(walletPageUrl("https://registry.example/v1", ADDRESS)).toBe(`https://registry.example/wallet/${ADDRESS}`);
  });
});

describe("AGORA_WALLET_FILE naming the default path", () => {
  it("counts as the default, so a first start makes its folder (an MCP bundle's setting names it outright)", () => {
    expect(loadSettings({ AGORA_WALLET_FILE: defaultWalletFile() }).walletFileSet).toBe(false);
    expect(
      loadSettings({ AGORA_WALLET_FILE: path.join(path.dirname(defaultWalletFile()), "other.json") }).walletFileSet,
    ).toBe(true);
  });
});
