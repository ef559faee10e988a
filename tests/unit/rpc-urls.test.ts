import { describe, expect, it } from "vitest";
import { parseRpcUrls } from "@/lib/config/rpc-urls";

describe("CHAIN_RPC_URLS", () => {
  it("reads each network in any of its spellings", () => {
    const parsed = parseRpcUrls(" base-sepolia=http://127.0.0.1:8545 , eip155:8453=https://mainnet.base.org/x=1");
    expect(parsed.map((e) => [e.network.caip2, e.url])).toEqual([
      ["eip155:84532", "http://127.0.0.1:8545"],
      ["eip155:8453", "https://mainnet.base.org/x=1"],
    ]);
    expect(parseRpcUrls(undefined)).toEqual([]);
  });

  it("names the bad entry", () => {
    expect(() => parseRpcUrls("solana=http://x")).toThrow('"solana=http://x": unknown network "solana"');
    expect(() => parseRpcUrls("84532=ftp://x")).toThrow("must be an http(s) URL");
    expect(() => parseRpcUrls("84532=http://a,USDC_BASE_SEPOLIA=http://b")).toThrow("Base Sepolia is given twice");
  });
});
