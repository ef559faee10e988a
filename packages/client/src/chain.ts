// Reads the chain: balances, and the proof a purchase needs before it counts as paid: the settlement
// transaction succeeded and moved exactly the price from this wallet to the payee, and nothing else.
import { createPublicClient, decodeEventLog, http, parseAbi, parseAbiItem, type Hex, type PublicClient } from "viem";
import type { PaymentNetwork } from "@agora-mcp/protocol";
import { PERMIT2_ADDRESS } from "@x402/evm";
import { chainName } from "./local-chain.js";
import { isUnreachable, reasonOf } from "./reach.js";

const usdcAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);
const authorizationUsedEvent = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
/** How far back a used authorisation's transaction is looked for: a settlement the server just made is recent. */
const AUTHORIZATION_LOOKBACK_BLOCKS = 2_000n;
const permit2Abi = parseAbi(["function nonceBitmap(address owner, uint256 word) view returns (uint256)"]);

/** Whether Permit2 has used `nonce` of `owner`: its bitmap word is nonce >> 8, its bit the low 8 bits. */
export async function permit2NonceUsed(client: PublicClient, owner: `0x${string}`, nonce: bigint): Promise<boolean> {
  const word = await client.readContract({
    address: PERMIT2_ADDRESS as `0x${string}`,
    abi: permit2Abi,
    functionName: "nonceBitmap",
    args: [owner, nonce >> 8n],
  });
  return (word & (1n << (nonce & 0xffn))) !== 0n;
}

/**
 * What a settlement must have moved from the buyer to the payee: exactly the price, or for a metered (upto) payment
 * anything from one unit up to the signed maximum. `ok` names what moved.
 */
export type PaymentCheck = { transaction: string; from: `0x${string}`; payTo: string; units: bigint; upTo?: boolean };
export type PaymentChecked = { ok: true; moved: bigint } | { ok: false; reason: string };

/** Judges what a transaction moved from the buyer against what it should have. */
export function judgeTransfers(check: PaymentCheck, toPayee: bigint, elsewhere: bigint): PaymentChecked {
  const { transaction, payTo, units, upTo } = check;
  if (elsewhere > 0n)
    return {
      ok: false,
      reason: `transaction ${transaction} sent ${elsewhere} units from this wallet to someone other than the payee ${payTo}`,
    };
  if (upTo ? toPayee === 0n || toPayee > units : toPayee !== units) {
    const expected = upTo ? `between 1 and the signed maximum of ${units}` : `the price of ${units}`;
    return { ok: false, reason: `transaction ${transaction} moved ${toPayee} units to ${payTo}, not ${expected}` };
  }
  return { ok: true, moved: toPayee };
}

export type ChainReader = {
  usdcBalance: (of: `0x${string}`) => Promise<bigint>;
  ethBalance: (of: `0x${string}`) => Promise<bigint>;
  /** Whether an EIP-3009 authorisation has been used (money moved) or not. */
  authorizationUsed: (from: `0x${string}`, nonce: Hex) => Promise<boolean>;
  /** The transaction that used an EIP-3009 authorisation in the last blocks (its AuthorizationUsed event), if found. */
  authorizationTransaction?: (from: `0x${string}`, nonce: Hex) => Promise<Hex | undefined>;
  /** Whether a Permit2 signature (an upto payment) has been used. */
  permit2NonceUsed: (from: `0x${string}`, nonce: bigint) => Promise<boolean>;
  checkPayment: (input: PaymentCheck) => Promise<PaymentChecked>;
  /** A contract read on the wallet's chain (x402's upto signer reads the token's allowance and permit nonce with it). */
  readContract: (args: ContractRead) => Promise<unknown>;
};

export type ContractRead = {
  address: `0x${string}`;
  abi: readonly unknown[];
  functionName: string;
  args?: readonly unknown[];
};

export class RpcError extends Error {}

/** A failed read as one line naming the RPC, its setting and what went wrong (viem's own says "HTTP request failed."). */
export function rpcFailure(error: unknown, rpcUrl: string, network: PaymentNetwork): RpcError {
  const where = `the RPC at ${rpcUrl} (AGORA_RPC_URL)`;
  if (isUnreachable(error)) return new RpcError(`cannot reach ${where}: ${reasonOf(error)}`);
  const reason = reasonOf(error);
  if (reason.startsWith("it answered HTTP")) return new RpcError(`${where} failed: ${reason}`);
  if (
    /returned no data|is not a contract|does not have the function/i.test(error instanceof Error ? error.message : "")
  ) {
    return new RpcError(`${where} has no USDC contract at ${network.asset}: is it a ${network.label} node?`);
  }
  return new RpcError(`${where} failed: ${reason}`);
}

export function chainReader(network: PaymentNetwork, rpcUrl: string, { receiptTimeoutMs = 60_000 } = {}): ChainReader {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 15_000, retryCount: 1 }) }) as PublicClient;
  const asset = network.asset;
  const named = <T>(read: () => Promise<T>) =>
    read().catch((error: unknown) => {
      throw rpcFailure(error, rpcUrl, network);
    });
  return {
    usdcBalance: (of) =>
      named(() => client.readContract({ address: asset, abi: usdcAbi, functionName: "balanceOf", args: [of] })),
    ethBalance: (of) => named(() => client.getBalance({ address: of })),
    authorizationUsed: (from, nonce) =>
      named(() =>
        client.readContract({ address: asset, abi: usdcAbi, functionName: "authorizationState", args: [from, nonce] }),
      ),
    authorizationTransaction: (from, nonce) =>
      named(async () => {
        const head = await client.getBlockNumber();
        const fromBlock = head > AUTHORIZATION_LOOKBACK_BLOCKS ? head - AUTHORIZATION_LOOKBACK_BLOCKS : 0n;
        const logs = await client.getLogs({
          address: asset,
          event: authorizationUsedEvent,
          args: { authorizer: from, nonce },
          fromBlock,
          toBlock: head,
        });
        return logs.at(-1)?.transactionHash ?? undefined;
      }),
    permit2NonceUsed: (from, nonce) => named(() => permit2NonceUsed(client, from, nonce)),
    readContract: (args) => named(() => client.readContract(args as Parameters<PublicClient["readContract"]>[0])),
    async checkPayment(check) {
      const { transaction, from, payTo } = check;
      if (!/^0x[0-9a-fA-F]{64}$/.test(transaction))
        return {
          ok: false,
          reason: `the server's transaction "${transaction.slice(0, 80)}" is not a transaction hash`,
        };
      let receipt;
      try {
        receipt = await client.waitForTransactionReceipt({
          hash: transaction as Hex,
          timeout: receiptTimeoutMs,
          pollingInterval: 250,
        });
      } catch (error) {
        if (isUnreachable(error)) return { ok: false, reason: rpcFailure(error, rpcUrl, network).message };
        return { ok: false, reason: `transaction ${transaction} was not found on ${chainName(network, rpcUrl)}` };
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
      return judgeTransfers(check, toPayee, elsewhere);
    },
  };
}
