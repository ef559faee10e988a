// The agent client's settings: defaults a newcomer is safe with, and a bad value named before anything starts.
import { describe, expect, it } from "vitest";
import { BASE_MAINNET, BASE_SEPOLIA } from "@agora-mcp/protocol";
import { loadSettings, registryEndpoint } from "@agora-mcp/client";

describe("client settings", () => {
  it("defaults to Base Sepolia, the public registry, elicitation on at $0.01 and small caps", () => {
    const s = loadSettings({ HOME: "/home/someone" });
    expect(s.network).toBe(BASE_SEPOLIA);
    expect(s.registryUrl).toBe("http://localhost:3000/api");
    expect(s.elicitation).toBe(true);
    expect(s.thresholdUnits).toBe(10_000n);
    expect(s.directAccess).toBe(false);
    expect(s.dailyCapUnits).toBe(1_000_000n);
    expect(s.maxPerPurchaseUnits).toBe(500_000n);
    expect(s.rpcUrl).toBe("https://sepolia.base.org");
    expect(s.walletFile).toMatch(/\.agora\/wallet\.json$/);
  });

  it("takes 0 as a threshold meaning ask every time, and exact dollar amounts", () => {
    const s = loadSettings({ ELICITATION_THRESHOLD: "0", AGORA_DAILY_CAP: "2.5", AGORA_MAX_PER_PURCHASE: "0.000001" });
    expect(s.thresholdUnits).toBe(0n);
    expect(s.dailyCapUnits).toBe(2_500_000n);
    expect(s.maxPerPurchaseUnits).toBe(1n);
  });

  it("uses Base mainnet only when it is named", () => {
    expect(loadSettings({ AGORA_NETWORK: "base" }).network).toBe(BASE_MAINNET);
    expect(loadSettings({ AGORA_NETWORK: "base-sepolia" }).network).toBe(BASE_SEPOLIA);
    expect(() => loadSettings({ AGORA_NETWORK: "bsae" })).toThrow(/^AGORA_NETWORK: Unknown network "bsae"/);
  });

  it.each([
    [{ ELICITATION_THRESHOLD: "abc" }, /^ELICITATION_THRESHOLD: must be an amount/],
    [{ ELICITATION_THRESHOLD: "-1" }, /^ELICITATION_THRESHOLD: .*negative/],
    [{ ELICITATION_THRESHOLD: "0.0000001" }, /^ELICITATION_THRESHOLD: .*6 decimals/],
    [{ ENABLE_REQUEST_ELICITATION: "yes" }, /^ENABLE_REQUEST_ELICITATION: must be "true" or "false"/],
    [{ ENABLE_UNSAFE_DIRECT_ACCESS: "on" }, /^ENABLE_UNSAFE_DIRECT_ACCESS: must be "true" or "false"/],
    [{ AGORA_REGISTRY_URL: "agora.example" }, /^AGORA_REGISTRY_URL: is not a URL/],
    [{ AGORA_REGISTRY_URL: "ftp://agora.example" }, /^AGORA_REGISTRY_URL: must be an http\(s\) URL/],
    [{ AGORA_RPC_URL: "http://user:pw@rpc" }, /^AGORA_RPC_URL: must not carry a user name or password/],
    [{ AGORA_DAILY_CAP: "0" }, /^AGORA_DAILY_CAP: must be more than 0/],
    [
      { AGORA_MAX_PER_PURCHASE: "5", AGORA_DAILY_CAP: "1" },
      /^AGORA_DAILY_CAP \(\$1\.00\) is less than AGORA_MAX_PER_PURCHASE \(\$5\.00\)/,
    ],
    [{ AGORA_WALLET_FILE: "wallet.json" }, /^AGORA_WALLET_FILE: must be an absolute path/],
  ])("refuses %o with a message naming the variable", (env, message) => {
    expect(() => loadSettings(env)).toThrow(message);
  });

  it("finds the registry's MCP endpoint under the API base, or under /api of a bare site address", () => {
    expect(registryEndpoint("https://agora.example/api")).toBe("https://agora.example/api/mcp");
    expect(registryEndpoint("http://localhost:3000")).toBe("http://localhost:3000/api/mcp");
    expect(registryEndpoint("http://localhost:3000/")).toBe("http://localhost:3000/api/mcp");
  });
});
