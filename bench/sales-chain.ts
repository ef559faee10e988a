// The sales benchmark's chain: `count` real sales settled on a local anvil, each a buyer-signed EIP-3009
// transferWithAuthorization on the sandbox USDC (Transfer + AuthorizationUsed in one transaction), `batch` of them per
// transaction through Multicall3, one transaction per block.
//
// Where the time went before (bench/RESULTS.md, 20,000 sales in 556 s): signing each authorization with viem in
// JavaScript, ~9.4 ms a signature on the loaded machine (95% of the time; a 200-sale transaction and its receipt took
// ~0.1 s). Here the buyers are anvil's own unlocked development accounts, so anvil signs (eth_signTypedData_v4, in
// Rust, ~0.8 ms a signature under the same load), a few thousand per JSON-RPC batch; the transactions go out in
// JSON-RPC batches with their nonces set, and their receipts are checked in batches at the end. The signatures
// are the buyers' own: the token contract checks each one on chain, as it would a facilitator's settlement.
import { encodeFunctionData, type Address, type Hex } from "viem";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { MULTICALL3_ADDRESS, USDC_ABI, USDC_ADDRESS } from "@/sandbox/chain";
import { AUTHORIZATION_TYPES, MULTICALL3_ABI } from "@/tests/support/direct-sales";

/** anvil unlocks the development mnemonic's accounts: 0–2 mint, settle and sell in tests; 3 submits here; buyers from 10. */
export const FIRST_BUYER_ACCOUNT = 10;
const SUBMITTER_ACCOUNT = 3;

type RpcAnswer = { id: number; result?: unknown; error?: { message: string } };

/** A JSON-RPC batch; every answer must be a result. */
async function rpcBatch(rpcUrl: string, calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, ...c }))),
  });
  const answers = (await res.json()) as RpcAnswer[];
  const byId = new Map(answers.map((a) => [a.id, a]));
  return calls.map((c, id) => {
    const answer = byId.get(id);
    if (!answer || answer.error || answer.result === undefined)
      throw new Error(`${c.method} failed: ${answer?.error?.message ?? "no answer"}`);
    return answer.result;
  });
}

export async function chainAccounts(rpcUrl: string): Promise<Address[]> {
  return (await rpcBatch(rpcUrl, [{ method: "eth_accounts", params: [] }]))[0] as Address[];
}

export type PlannedSale = { buyer: Address; payee: Address; units: bigint };
export type GenerationTimes = { signMs: number; encodeMs: number; sendMs: number; receiptsMs: number };

// Fees far above what these blocks' base fee reaches, so no transaction waits in the pool for a cheaper block.
const FEES = { maxFeePerGas: `0x${(50n * 10n ** 9n).toString(16)}`, maxPriorityFeePerGas: "0x1" };

const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];
const DOMAIN = {
  name: BASE_SEPOLIA.eip712.name,
  version: BASE_SEPOLIA.eip712.version,
  chainId: BASE_SEPOLIA.chainId,
  verifyingContract: USDC_ADDRESS,
};

/**
 * Settles `count` sales, sale n being `plan(n)`, in chunks of `chunk` signatures; `onProgress` after each chunk.
 * Returns the time spent in each step. Throws unless every transaction succeeded.
 */
export async function generateSales(
  rpcUrl: string,
  options: {
    count: number;
    batch: number;
    chunk?: number;
    plan: (n: number) => PlannedSale;
    onProgress?: (done: number) => void;
  },
): Promise<GenerationTimes> {
  const accounts = await chainAccounts(rpcUrl);
  const submitter = accounts[SUBMITTER_ACCOUNT]!;
  let nonce = BigInt(
    (await rpcBatch(rpcUrl, [{ method: "eth_getTransactionCount", params: [submitter, "pending"] }]))[0] as string,
  );
  // Mined on request (anvil_mine), not as each transaction of a batch arrives, which left some waiting in the pool.
  await rpcBatch(rpcUrl, [{ method: "evm_setAutomine", params: [false] }]);
  const chunk = options.chunk ?? options.batch * 10;
  const times: GenerationTimes = { signMs: 0, encodeMs: 0, sendMs: 0, receiptsMs: 0 };
  const hashes: Hex[] = [];
  const clock = (key: keyof GenerationTimes, started: number) => (times[key] += performance.now() - started);
  for (let start = 0; start < options.count; start += chunk) {
    const sales = Array.from({ length: Math.min(chunk, options.count - start) }, (_, j) => {
      const n = start + j;
      const sale = options.plan(n);
      const message = {
        from: sale.buyer,
        to: sale.payee,
        value: sale.units,
        validAfter: 0n,
        validBefore: 2n ** 48n,
        nonce: `0x${(n + 1).toString(16).padStart(64, "0")}` as Hex,
      };
      return { sale, message };
    });
    let started = performance.now();
    const signatures = (await rpcBatch(
      rpcUrl,
      sales.map(({ sale, message }) => ({
        method: "eth_signTypedData_v4",
        params: [
          sale.buyer,
          {
            types: { EIP712Domain: EIP712_DOMAIN_TYPE, ...AUTHORIZATION_TYPES },
            primaryType: "TransferWithAuthorization",
            domain: DOMAIN,
            message: {
              ...message,
              value: message.value.toString(),
              validAfter: "0",
              validBefore: message.validBefore.toString(),
            },
          },
        ],
      })),
    )) as Hex[];
    clock("signMs", started);

    started = performance.now();
    const calls = sales.map(({ message }, j) =>
      encodeFunctionData({
        abi: USDC_ABI,
        functionName: "transferWithAuthorization",
        args: [
          message.from,
          message.to,
          message.value,
          message.validAfter,
          message.validBefore,
          message.nonce,
          signatures[j]!,
        ],
      }),
    );
    const txs = [];
    for (let i = 0; i < calls.length; i += options.batch) {
      const slice = calls.slice(i, i + options.batch);
      const data = encodeFunctionData({
        abi: MULTICALL3_ABI,
        functionName: "aggregate3",
        args: [slice.map((callData) => ({ target: USDC_ADDRESS, allowFailure: false, callData }))],
      });
      txs.push({
        from: submitter,
        to: MULTICALL3_ADDRESS,
        data,
        gas: `0x${(60_000 + 90_000 * slice.length).toString(16)}`,
        nonce: `0x${(nonce++).toString(16)}`,
        ...FEES,
      });
    }
    clock("encodeMs", started);

    started = performance.now();
    hashes.push(
      ...((await rpcBatch(
        rpcUrl,
        txs.map((tx) => ({ method: "eth_sendTransaction", params: [tx] })),
      )) as Hex[]),
    );
    // One block per transaction: the block gas limit (30M) holds one 200-sale transaction's gas limit.
    await rpcBatch(rpcUrl, [{ method: "anvil_mine", params: [`0x${txs.length.toString(16)}`] }]);
    clock("sendMs", started);
    options.onProgress?.(start + sales.length);
  }

  // A transaction still in the pool (none expected) gets another block.
  const started = performance.now();
  const deadline = Date.now() + 300_000;
  for (let i = 0; i < hashes.length;) {
    const slice = hashes.slice(i, i + 100);
    const receipts = (await rpcBatch(
      rpcUrl,
      slice.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })),
    )) as ({ status: string } | null)[];
    const failed = receipts.findIndex((r) => r !== null && r.status !== "0x1");
    if (failed >= 0) throw new Error(`settling transaction ${slice[failed]} reverted`);
    if (receipts.every((r) => r !== null)) i += 100;
    else if (Date.now() > deadline) throw new Error("settling transactions were not mined within 300 s");
    else await rpcBatch(rpcUrl, [{ method: "evm_mine", params: [] }]);
  }
  clock("receiptsMs", started);
  await rpcBatch(rpcUrl, [{ method: "evm_setAutomine", params: [true] }]);
  return times;
}
