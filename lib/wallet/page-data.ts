// What the wallet page (/wallet/{address}) shows: the address's USDC balance on each network this site reads
// (CHAIN_RPC_URLS), its purchases from listed servers (the sales the indexer holds) and where to get test USDC.
// Bounded: one balanceOf per network under a short deadline, at most PURCHASES_SHOWN sales, and the whole view
// kept for a few seconds per address (a page reload or a crawler does not reach the chain again). A chain that
// does not answer, or answers another chain, is a balance "unavailable", never its error.
import "server-only";
import { getAddress, isAddress, type Address } from "viem";
import { findNetwork } from "@agora-mcp/protocol";
import { purchasesByPayer, type PurchaseByPayer } from "@/db/queries/sales";
import { createResultCache } from "@/lib/cache/result-cache";
import { verifiedChainReader } from "@/lib/chain/reader";
import { parseRpcUrls } from "@/lib/config/rpc-urls";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { logWarn } from "@/lib/log";

export const PURCHASES_SHOWN = 50;
const BALANCE_DEADLINE_MS = 3_000;
const CIRCLE_FAUCET = "https://faucet.circle.com";

const BALANCE_OF = [
  { type: "function", name: "balanceOf", stateMutability: "view", inputs: [{ name: "account", type: "address" }], outputs: [{ name: "", type: "uint256" }] },
] as const;

export type NetworkBalance = {
  caip2: string;
  label: string;
  testnet: boolean;
  /** USDC's smallest unit, exact; null when the chain did not answer in time. */
  units: string | null;
  /** Where to get test USDC on a test network. */
  faucetUrl: string | null;
};

export type WalletPurchase = Omit<PurchaseByPayer, "at"> & { at: string; networkLabel: string };

export type WalletView = { address: Address; balances: NetworkBalance[]; purchases: WalletPurchase[] };

/** The address in its checksummed form, or null for anything that is not one (the page is then a 404). */
export function walletAddress(raw: string): Address | null {
  // Mixed case must carry a valid checksum (a typo in one letter is caught); all lower case is plain hex.
  return isAddress(raw, { strict: true }) ? getAddress(raw) : null;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

async function balanceOn(caip2: string, address: Address): Promise<string | null> {
  const network = findNetwork(caip2)!;
  try {
    const client = await withDeadline(verifiedChainReader(caip2), BALANCE_DEADLINE_MS);
    if (!client) return null;
    const units = await withDeadline(client.readContract({ address: network.asset, abi: BALANCE_OF, functionName: "balanceOf", args: [address] }), BALANCE_DEADLINE_MS);
    return units.toString();
  } catch (error) {
    // The reader's errors name the RPC URL: the log has it, the page says only "unavailable".
    logWarn("wallet page: balance unavailable", { network: caip2, error: error instanceof Error ? error.message.split("\n")[0] : String(error) });
    return null;
  }
}

async function loadView(address: Address): Promise<WalletView> {
  const endpoints = parseRpcUrls(env().CHAIN_RPC_URLS);
  const networks = endpoints.map((e) => e.network);
  const [balances, purchases] = await Promise.all([
    Promise.all(
      networks.map(async (n) => ({
        caip2: n.caip2,
        label: n.label,
        testnet: n.testnet,
        units: await balanceOn(n.caip2, address),
        faucetUrl: n.testnet ? CIRCLE_FAUCET : null,
      })),
    ),
    purchasesByPayer(await getDb(), address, networks.map((n) => n.caip2), PURCHASES_SHOWN),
  ]);
  return {
    address,
    balances,
    purchases: purchases.map((p) => ({ ...p, at: p.at.toISOString(), networkLabel: findNetwork(p.network)?.label ?? p.network })),
  };
}

// A few seconds: long enough that reloads and bursts share one read, short enough that funds that just arrived show
// on the next look.
const views = createResultCache<WalletView>({ maxEntries: 500, maxBytes: 4_000_000, ttlMs: 10_000 });

export async function walletView(address: Address): Promise<WalletView> {
  return (await views.get(address.toLowerCase(), () => loadView(address))).value;
}
