// One indexing run over every network CHAIN_RPC_URLS names, with the settings from lib/env.ts. A network whose
// RPC fails is reported and the others still run; its cursor stays at the last range it finished.
import { findNetwork } from "@agora-mcp/protocol";
import type { Db } from "@/db/types";
import { verifiedChainReader } from "@/lib/chain/reader";
import { testPurchaseWallet } from "@/lib/test-purchases/settings";
import { parseRpcUrls } from "@/lib/config/rpc-urls";
import { env } from "@/lib/env";
import { indexSales, type IndexResult, type IndexSettings } from "@/lib/sales/indexer";

export type SalesRunSummary = { networks: (IndexResult | { network: string; error: string })[] };

function indexSettings(): IndexSettings {
  const e = env();
  const houseWallet = testPurchaseWallet()?.address;
  return {
    confirmations: e.SALES_CONFIRMATIONS,
    reorgDepth: e.SALES_REORG_DEPTH,
    maxBlockRange: e.SALES_MAX_BLOCK_RANGE,
    backfillBlocks: e.SALES_BACKFILL_BLOCKS,
    excludedPayers: houseWallet ? [houseWallet] : [],
  };
}

export async function indexAllSales(db: Db, signal?: AbortSignal): Promise<SalesRunSummary> {
  const networks: SalesRunSummary["networks"] = [];
  for (const endpoint of parseRpcUrls(env().CHAIN_RPC_URLS)) {
    if (signal?.aborted) break;
    const network = findNetwork(endpoint.network.caip2)!;
    try {
      const client = (await verifiedChainReader(network.caip2))!;
      networks.push(await indexSales(db, { ...indexSettings(), network, client, signal }));
    } catch (error) {
      // A fixed sentence and the error's own message (RPC errors name the method, never a key).
      networks.push({
        network: network.caip2,
        error: error instanceof Error ? error.message.split("\n")[0]!.slice(0, 300) : String(error),
      });
    }
  }
  return { networks };
}
