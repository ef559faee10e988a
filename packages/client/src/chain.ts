// Reads the chain: balances, and the proof a purchase needs before it counts as paid: the settlement
// transaction succeeded and moved exactly the price from this wallet to the payee, and nothing else.
import { createPublicClient, decodeEventLog, http, parseAbi, type Hex, type PublicClient } from "viem";
import type { PaymentNetwork } from "@agora-mcp/protocol";

const usdcAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);

export type ChainReader = {
  usdcBalance: (of: `0x${string}`) => Promise<bigint>;
  ethBalance: (of: `0x${string}`) => Promise<bigint>;
  /** Whether an EIP-3009 authorisation has been used (money moved) or not. */
  authorizationUsed: (from: `0x${string}`, nonce: Hex) => Promise<boolean>;
  checkPayment: (input: { transaction: string; from: `0x${string}`; payTo: string; units: bigint }) => Promise<{ ok: true } | { ok: false; reason: string }>;
};

export function chainReader(network: PaymentNetwork, rpcUrl: string, { receiptTimeoutMs = 60_000 } = {}): ChainReader {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 15_000, retryCount: 1 }) }) as PublicClient;
  const asset = network.asset;
  return {
    usdcBalance: (of) => client.readContract({ address: asset, abi: usdcAbi, functionName: "balanceOf", args: [of] }),
    ethBalance: (of) => client.getBalance({ address: of }),
    authorizationUsed: (from, nonce) => client.readContract({ address: asset, abi: usdcAbi, functionName: "authorizationState", args: [from, nonce] }),
    async checkPayment({ transaction, from, payTo, units }) {
      if (!/^0x[0-9a-fA-F]{64}$/.test(transaction)) return { ok: false, reason: `the server's transaction "${transaction.slice(0, 80)}" is not a transaction hash` };
      let receipt;
      try {
        receipt = await client.waitForTransactionReceipt({ hash: transaction as Hex, timeout: receiptTimeoutMs, pollingInterval: 250 });
      } catch {
        return { ok: false, reason: `transaction ${transaction} was not found on ${network.label}` };
      }
      if (receipt.status !== "success") return { ok: false, reason: `transaction ${transaction} failed on chain` };
      let toPayee = 0n;
      let elsewhere = 0n;
      for (const log of receipt.logs) {
        if (log.address.toLowerCase() !== asset.toLowerCase()) continue;
        try {
          const event = decodeEventLog({ abi: usdcAbi, data: log.data, topics: log.topics });
          if (event.eventName !== "Transfer" || event.args.from.toLowerCase() !== from.toLowerCase()) continue;
          if (event.args.to.toLowerCase() === payTo.toLowerCase()) toPayee += event.args.value;
          else elsewhere += event.args.value;
        } catch {
          // Another event of the token.
        }
      }
      if (elsewhere > 0n) return { ok: false, reason: `transaction ${transaction} sent ${elsewhere} units from this wallet to someone other than the payee ${payTo}` };
      if (toPayee !== units) return { ok: false, reason: `transaction ${transaction} moved ${toPayee} units to ${payTo}, not the price of ${units}` };
      return { ok: true };
    },
  };
}
