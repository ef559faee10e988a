// A sale read straight from the chain: the settlement transaction's receipt, classified by the same rule the
// sales indexer uses (lib/sales/sale-logs.ts), and its block's time. Bounded: one receipt and one block,
// each call timing out in the chain reader.
import type { PaymentNetwork } from "@agora-mcp/protocol";
import type { Hex } from "viem";
import { ChainMismatchError, verifiedChainReader } from "@/lib/chain/reader";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { salesInLogs, type SaleLog } from "@/lib/sales/sale-logs";

type ChainSale = SaleLog & { paidAt: Date };

const UNREADABLE = (network: PaymentNetwork) =>
  new ApiError(503, `Agora cannot read ${network.label} right now; try again in a minute.`, {
    headers: { "Retry-After": "60" },
  });

/** The sale `logIndex` names in `txHash` (-1: the transaction's only sale); ApiError 404/400/503 otherwise. */
export async function readSale(network: PaymentNetwork, txHash: Hex, logIndex: number): Promise<ChainSale> {
  let client;
  try {
    client = await verifiedChainReader(network.caip2);
  } catch (error) {
    if (error instanceof ChainMismatchError)
      throw new ApiError(
        503,
        `Agora cannot check sales on ${network.label} right now (its chain connection is misconfigured).`,
      );
    throw UNREADABLE(network);
  }
  if (!client)
    throw new ApiError(
      503,
      `Agora does not read ${network.label} (no RPC is configured for it), so it cannot check this sale.`,
    );
  let receipt;
  try {
    receipt = await client.getTransactionReceipt({ hash: txHash });
  } catch (error) {
    if ((error as Error).name === "TransactionReceiptNotFoundError")
      throw new ApiError(404, `No transaction ${txHash} on ${network.label} (not mined yet, or on another chain).`);
    throw UNREADABLE(network);
  }
  if (receipt.status !== "success")
    throw new ApiError(404, `Transaction ${txHash} failed on ${network.label}: it paid nothing.`);
  const sales = salesInLogs(receipt.logs, network.asset);
  if (sales.length === 0)
    throw new ApiError(404, `Transaction ${txHash} holds no x402 payment in USDC (a plain transfer is not a sale).`);
  let sale: SaleLog | undefined;
  if (logIndex === -1) {
    if (sales.length > 1)
      throw new ApiError(
        400,
        `Transaction ${txHash} holds ${sales.length} sales; name yours by logIndex (${sales.map((s) => s.logIndex).join(", ")}).`,
      );
    sale = sales[0];
  } else {
    sale = sales.find((s) => s.logIndex === logIndex);
    if (!sale)
      throw new ApiError(
        404,
        `Log ${logIndex} of transaction ${txHash} is not a sale (sales there: ${sales.map((s) => s.logIndex).join(", ")}).`,
      );
  }
  // As deep as the sales indexer counts a sale: a review must not outlive a reorganisation that undoes its sale.
  const confirmations = BigInt(env().SALES_CONFIRMATIONS);
  let block, head;
  try {
    [block, head] = await Promise.all([
      client.getBlock({ blockHash: sale!.blockHash }),
      client.getBlockNumber({ cacheTime: 0 }),
    ]);
  } catch {
    throw UNREADABLE(network);
  }
  if (head < receipt.blockNumber + confirmations) {
    throw new ApiError(
      409,
      `Transaction ${txHash} is not confirmed yet on ${network.label} (${confirmations} confirmations needed); try again in a minute.`,
      { headers: { "Retry-After": "30" } },
    );
  }
  return { ...sale!, paidAt: new Date(Number(block.timestamp) * 1000) };
}
