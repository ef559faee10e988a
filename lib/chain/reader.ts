// A read-only client for one payment network's chain, from CHAIN_RPC_URLS. Bounded: every call times out and
// none is retried here (callers keep their own cursors and try again on their next run).
import { findNetwork } from "@agora-mcp/protocol";
import { createPublicClient, http, type PublicClient } from "viem";
import { env } from "@/lib/env";
import { parseRpcUrls } from "@/lib/config/rpc-urls";

const RPC_TIMEOUT_MS = 10_000;
const clients = new Map<string, PublicClient>();

/** The client for `network` (any spelling), or null when no RPC URL is configured for it. */
export function chainReader(network: string): PublicClient | null {
  const wanted = findNetwork(network);
  if (!wanted) return null;
  const endpoint = parseRpcUrls(env().CHAIN_RPC_URLS).find((e) => e.network.caip2 === wanted.caip2);
  if (!endpoint) return null;
  const key = `${wanted.caip2}=${endpoint.url}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({ transport: http(endpoint.url, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
    clients.set(key, client);
  }
  return client;
}

// Networks whose RPC said it serves them, and the checks in progress: the outcome is kept, not the promise (a
// promise made during a request would keep that request alive for the life of the process).
const verified = new Set<string>();
const checks = new Map<string, Promise<void>>();

/** The RPC configured for a network answers another chain: nothing read from it may count. */
export class ChainMismatchError extends Error {
  override name = "ChainMismatchError";
}

/**
 * The client for `network` once its RPC has said it serves that chain (eth_chainId, asked once per process and
 * again after a failed answer): a CHAIN_RPC_URLS entry pointing at the wrong chain would otherwise count another
 * chain's transfers as sales, or verify a review against them. Null when no RPC URL is configured.
 */
export async function verifiedChainReader(network: string): Promise<PublicClient | null> {
  const wanted = findNetwork(network);
  const client = chainReader(network);
  if (!wanted || !client) return null;
  const key = `${wanted.caip2}=${client.transport.url ?? ""}`;
  if (verified.has(key)) return client;
  let check = checks.get(key);
  if (!check) {
    check = client
      .getChainId()
      .then((id) => {
        if (id !== wanted.chainId)
          throw new ChainMismatchError(
            `The RPC configured for ${wanted.label} answers chain id ${id}, not ${wanted.chainId}: check CHAIN_RPC_URLS.`,
          );
        verified.add(key);
      })
      .finally(() => checks.delete(key));
    checks.set(key, check);
  }
  await check;
  return client;
}

const LOOPBACK_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/**
 * The RPC URL of `network` when it is a chain on this machine (loopback: the sandbox's anvil, a local fork): its
 * transactions exist nowhere else, so no public explorer or faucet of the network it answers as applies. Null otherwise.
 */
export function localChainRpc(network: string): string | null {
  const wanted = findNetwork(network);
  if (!wanted) return null;
  const endpoint = parseRpcUrls(env().CHAIN_RPC_URLS).find((e) => e.network.caip2 === wanted.caip2);
  return endpoint && LOOPBACK_HOSTS.test(new URL(endpoint.url).hostname) ? endpoint.url : null;
}

/** Where a person can see a transaction: its public explorer page, or none on a chain on this machine. */
export type TransactionPlace = {
  /** The transaction on the network's public block explorer; null on a local chain (or an unknown network). */
  explorerUrl: string | null;
  /** The transaction exists only on a chain on this machine (the sandbox's): pages say "local chain" instead. */
  localChain: boolean;
};

/**
 * The one answer every page, API and tool gives for a transaction's link: a local chain's transactions are on no
 * public explorer (a Base Sepolia explorer page for one would show "not found"), so it gets none.
 */
export function transactionPlace(network: string, txHash: string): TransactionPlace {
  const found = findNetwork(network);
  if (!found) return { explorerUrl: null, localChain: false };
  if (localChainRpc(found.caip2)) return { explorerUrl: null, localChain: true };
  return {
    explorerUrl: `${found.testnet ? "https://sepolia.basescan.org" : "https://basescan.org"}/tx/${txHash}`,
    localChain: false,
  };
}
