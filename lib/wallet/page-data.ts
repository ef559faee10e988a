// What the wallet page (/wallet/{address}) shows: the address's USDC balance on each network this site reads
// (CHAIN_RPC_URLS), its purchases from listed servers (the sales the indexer holds) and where to get test USDC.
// The chain is the operator's RPC quota, which sales indexing and buyer reviews need too, so a public page spends it
// sparingly: a balance is read only for an address with purchases recorded or when the person asks for it; each
// address's reading is kept a few seconds (a bounded cache); and the readings one client causes are rate-limited
// (keyed by its address as every limit is, lib/http/client-address.ts clientIp). Each balanceOf runs under a short deadline; a
// chain that does not answer, or answers another chain, is a balance "unavailable", never its error.
import "server-only";
import { getAddress, isAddress, type Address } from "viem";
import { findNetwork } from "@agora-mcp/protocol";
import { purchasesByPayer, type PurchaseByPayer } from "@/db/queries/sales";
import { createResultCache } from "@/lib/cache/result-cache";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { localChainRpc, transactionPlace, verifiedChainReader } from "@/lib/chain/reader";
import { parseRpcUrls } from "@/lib/config/rpc-urls";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { logWarn } from "@/lib/log";
import { purchaseTerms } from "./purchase-terms";

export const PURCHASES_SHOWN = 50;
const BALANCE_DEADLINE_MS = 3_000;
const CIRCLE_FAUCET = "https://faucet.circle.com";

const BALANCE_OF = [
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;

/**
 * `read`: units holds it; `unavailable`: the chain did not answer in time; `on-request`: not read, since the address
 * has no purchases and nobody asked; `limited`: not read, since this client asked for too many balances (`refusal`).
 */
type BalanceState = "read" | "unavailable" | "on-request" | "limited";

export type NetworkBalance = {
  caip2: string;
  label: string;
  testnet: boolean;
  state: BalanceState;
  /** USDC's smallest unit, exact; null unless the state is `read`. */
  units: string | null;
  /** Why a `limited` balance was not read, with when to try again. */
  refusal: string | null;
  /** Where to get test USDC on a test network (none for a chain on this machine: no public faucet funds it). */
  faucetUrl: string | null;
  /** The RPC of a chain on this machine (the sandbox's), named instead of the public network's explorer and faucet. */
  localRpc: string | null;
};

export type WalletPurchase = Omit<PurchaseByPayer, "at"> & {
  at: string;
  networkLabel: string;
  /** Null on a chain on this machine. */
  explorerUrl: string | null;
  localChain: boolean;
  /** What a metered call or a channel's claim was ("Metered: up to $0.10, paid $0.03"); null for a plain purchase. */
  terms: string | null;
};

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
    const units = await withDeadline(
      client.readContract({ address: network.asset, abi: BALANCE_OF, functionName: "balanceOf", args: [address] }),
      BALANCE_DEADLINE_MS,
    );
    return units.toString();
  } catch (error) {
    // The reader's errors name the RPC URL: the log has it, the page says only "unavailable".
    logWarn("wallet page: balance unavailable", {
      network: caip2,
      error: error instanceof Error ? error.message.split("\n")[0] : String(error),
    });
    return null;
  }
}

/** Who is looking and whether they asked for the balance (the page's "Show balance"). */
type WalletRequest = { client: string; balanceAsked: boolean };

// A few seconds: long enough that reloads, bursts and a crawler's repeats share one read, short enough that funds
// that just arrived show on the next look. Bounded by count and bytes: distinct addresses cannot grow it.
const BALANCE_TTL_MS = 15_000;
const readings = createResultCache<string | null>({
  maxEntries: 5_000,
  maxBytes: 500_000,
  ttlMs: BALANCE_TTL_MS,
  sizeOf: () => 100,
});
const purchaseLists = createResultCache<WalletPurchase[]>({ maxEntries: 500, maxBytes: 4_000_000, ttlMs: 10_000 });

async function purchasesOf(address: Address, networks: string[]): Promise<WalletPurchase[]> {
  const load = async () =>
    (await purchasesByPayer(await getDb(), address, networks, PURCHASES_SHOWN)).map((p) => {
      const place = transactionPlace(p.network, p.txHash);
      const label = findNetwork(p.network)?.label ?? p.network;
      return {
        ...p,
        ...place,
        at: p.at.toISOString(),
        networkLabel: place.localChain ? `${label}, local chain` : label,
        terms: purchaseTerms(p),
      };
    });
  return (await purchaseLists.get(address.toLowerCase(), load)).value;
}

/** The balance kept for a few seconds, or read now, counted against the client's limit (a refusal is never kept). */
async function balanceReading(
  caip2: string,
  address: Address,
  client: string,
): Promise<{ units: string | null } | { refusal: string }> {
  try {
    const { value } = await readings.get(`${caip2}:${address.toLowerCase()}`, async () => {
      await enforceLimit(await getDb(), limits.walletBalanceReadsPerIp, client);
      return balanceOn(caip2, address);
    });
    return { units: value };
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return { refusal: error.message };
    throw error;
  }
}

export async function walletView(address: Address, request: WalletRequest): Promise<WalletView> {
  const networks = parseRpcUrls(env().CHAIN_RPC_URLS).map((e) => e.network);
  const purchases = await purchasesOf(
    address,
    networks.map((n) => n.caip2),
  );
  const read = request.balanceAsked || purchases.length > 0;
  const balances = await Promise.all(
    networks.map(async (n): Promise<NetworkBalance> => {
      const localRpc = localChainRpc(n.caip2);
      const shown = {
        caip2: n.caip2,
        label: n.label,
        testnet: n.testnet,
        faucetUrl: n.testnet && !localRpc ? CIRCLE_FAUCET : null,
        localRpc,
      };
      if (!read) return { ...shown, state: "on-request", units: null, refusal: null };
      const reading = await balanceReading(n.caip2, address, request.client);
      if ("refusal" in reading) return { ...shown, state: "limited", units: null, refusal: reading.refusal };
      return { ...shown, state: reading.units === null ? "unavailable" : "read", units: reading.units, refusal: null };
    }),
  );
  return { address, balances, purchases };
}
