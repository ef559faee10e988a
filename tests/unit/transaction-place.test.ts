// Every page, API answer and tool links a transaction through one helper: a public explorer for a chain the site reads
// over the network, none (and the words "local chain") for a chain on its own machine, such as the sandbox's anvil.
import { afterEach, describe, expect, it } from "vitest";
import { transactionPlace } from "@/lib/chain/reader";
import { reloadEnv } from "@/lib/env";
import { salesFacts } from "@/lib/listings/presenters/sales-facts";

const TX = `0x${"ab".repeat(32)}`;
const before = process.env.CHAIN_RPC_URLS;

function withRpcUrls(value: string | undefined) {
  if (value === undefined) delete process.env.CHAIN_RPC_URLS;
  else process.env.CHAIN_RPC_URLS = value;
  reloadEnv();
}

afterEach(() => withRpcUrls(before));

describe("transactionPlace", () => {
  it("links Base Sepolia's and Base's public explorers when the site reads a real chain (or none is configured)", () => {
    withRpcUrls("eip155:84532=https://sepolia.base.org,eip155:8453=https://mainnet.base.org");
    expect(transactionPlace("eip155:84532", TX)).toEqual({
      explorerUrl: `https://sepolia.basescan.org/tx/${TX}`,
      localChain: false,
    });
    expect(transactionPlace("84532", TX)).toEqual({
      explorerUrl: `https://sepolia.basescan.org/tx/${TX}`,
      localChain: false,
    });
    expect(transactionPlace("eip155:8453", TX)).toEqual({
      explorerUrl: `https://basescan.org/tx/${TX}`,
      localChain: false,
    });
    withRpcUrls(undefined);
    expect(transactionPlace("eip155:84532", TX).explorerUrl).toBe(`https://sepolia.basescan.org/tx/${TX}`);
  });

  it("gives no public link for a chain on this machine, in any loopback spelling, and says it is local", () => {
    for (const url of ["http://127.0.0.1:8545", "http://localhost:8545", "http://[::1]:8545"]) {
      withRpcUrls(`eip155:84532=${url}`);
      expect(transactionPlace("eip155:84532", TX)).toEqual({ explorerUrl: null, localChain: true });
    }
    // Only the network served locally: Base, read over the network, keeps its explorer.
    withRpcUrls("eip155:84532=http://127.0.0.1:8545,eip155:8453=https://mainnet.base.org");
    expect(transactionPlace("eip155:8453", TX).explorerUrl).toBe(`https://basescan.org/tx/${TX}`);
  });

  it("an unknown network has neither a link nor a local chain", () => {
    expect(transactionPlace("eip155:1", TX)).toEqual({ explorerUrl: null, localChain: false });
  });

  it("the detail page's last sale carries the same answer", () => {
    const window = { sales: 1, buyers: 1, volumeUnits: "250000" };
    const summary = {
      last7d: window,
      last30d: window,
      allTime: window,
      lastSale: { network: "eip155:84532", txHash: TX, at: "2026-11-29T12:00:00.000Z", amountUnits: "250000" },
    };
    withRpcUrls("eip155:84532=http://127.0.0.1:8545");
    expect(salesFacts(summary).lastSale).toMatchObject({ explorerUrl: null, localChain: true, amountUsd: "0.25" });
    withRpcUrls("eip155:84532=https://sepolia.base.org");
    expect(salesFacts(summary).lastSale).toMatchObject({
      explorerUrl: `https://sepolia.basescan.org/tx/${TX}`,
      localChain: false,
    });
  });
});
