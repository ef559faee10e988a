// The purchase code's view of the chain (the agent client's ChainReader), read through the site's own
// time-bounded client for the network (lib/chain/reader.ts) and its one definition of a sale (lib/sales/sale-logs.ts).
import { judgeTransfers, permit2NonceUsed, type ChainReader } from "@agora-mcp/client";
import type { PaymentNetwork } from "@agora-mcp/protocol";
import { getAddress, parseAbi, type Hex, type PublicClient } from "viem";
import { salesInLogs } from "@/lib/sales/sale-logs";

const tokenAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);

/** How long to wait for a settlement the server named to be mined. */
const RECEIPT_WAIT_MS = 30_000;

export function siteChainReader(client: PublicClient, network: PaymentNetwork): ChainReader {
  const asset = network.asset;
  return {
    usdcBalance: (of) => client.readContract({ address: asset, abi: tokenAbi, functionName: "balanceOf", args: [of] }),
    ethBalance: (of) => client.getBalance({ address: of }),
    authorizationUsed: (from, nonce) =>
      client.readContract({ address: asset, abi: tokenAbi, functionName: "authorizationState", args: [from, nonce] }),
    permit2NonceUsed: (from, nonce) => permit2NonceUsed(client, from, nonce),
    readContract: (args) => client.readContract(args as Parameters<PublicClient["readContract"]>[0]),
    async checkPayment(check) {
      const { transaction, from, payTo } = check;
      if (!/^0x[0-9a-fA-F]{64}$/.test(transaction))
        return { ok: false, reason: "the server's transaction is not a transaction hash" };
      let receipt;
      try {
        receipt = await client.waitForTransactionReceipt({
          hash: transaction as Hex,
          timeout: RECEIPT_WAIT_MS,
          pollingInterval: 250,
        });
      } catch {
        return { ok: false, reason: `transaction ${transaction} was not found on ${network.label}` };
      }
      if (receipt.status !== "success") return { ok: false, reason: `transaction ${transaction} failed on chain` };
      const mine = salesInLogs(receipt.logs, asset).filter((sale) => sale.payer === getAddress(from));
      const toPayee = mine.filter((s) => s.payee === getAddress(payTo)).reduce((sum, s) => sum + s.amount, 0n);
      const elsewhere = mine.filter((s) => s.payee !== getAddress(payTo)).reduce((sum, s) => sum + s.amount, 0n);
      return judgeTransfers(check, toPayee, elsewhere);
    },
  };
}
