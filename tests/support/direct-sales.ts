// Sales settled straight on the local chain, the way a facilitator settles them (the buyer signs an EIP-3009
// transferWithAuthorization, another account submits it), many per transaction through Multicall3 when asked:
// the reorg tests need sales without the facilitator's remembered nonces, and the benchmark needs 100,000 of them.
import {
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  http,
  publicActions,
  toHex,
  type Address,
  type Hex,
} from "viem";
import { mnemonicToAccount, type PrivateKeyAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { MULTICALL3_ADDRESS, USDC_ABI, USDC_ADDRESS } from "@/sandbox/chain";

// A third anvil development account (the minter and the facilitator use the first two), read from the chain's
// nonce each time: after an evm_revert its nonce goes back too.
const SUBMITTER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 2 });

export const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export const MULTICALL3_ABI = [
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "returnData",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
] as const;

export type DirectSale = { buyer: PrivateKeyAccount; payee: Address; units: bigint };

let nonceSeed = 0;

/** The calldata of one buyer-signed transferWithAuthorization. */
async function authorizedTransfer(sale: DirectSale): Promise<Hex> {
  const nonce = toHex(BigInt(Date.now()) * 1_000_000n + BigInt(nonceSeed++), { size: 32 });
  const message = {
    from: sale.buyer.address,
    to: sale.payee,
    value: sale.units,
    validAfter: 0n,
    validBefore: 2n ** 48n,
    nonce,
  };
  const signature = await sale.buyer.signTypedData({
    domain: {
      name: BASE_SEPOLIA.eip712.name,
      version: BASE_SEPOLIA.eip712.version,
      chainId: BASE_SEPOLIA.chainId,
      verifyingContract: USDC_ADDRESS,
    },
    types: AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message,
  });
  return encodeFunctionData({
    abi: USDC_ABI,
    functionName: "transferWithAuthorization",
    args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature],
  });
}

export function directSeller(rpcUrl: string) {
  const transport = http(rpcUrl);
  const wallet = createWalletClient({ account: SUBMITTER, chain: baseSepolia, transport }).extend(publicActions);
  const test = createTestClient({ chain: baseSepolia, mode: "anvil", transport });
  // A plain poll for the receipt (viem's waitForTransactionReceipt watches block numbers, and was seen to miss a
  // mined transaction on a loaded machine).
  const receiptOf = async (hash: Hex) => {
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const receipt = await wallet.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) return receipt;
    }
    throw new Error(`transaction ${hash} was not mined within 120 s`);
  };
  return {
    /** Settles the sales in one transaction (Multicall3 when more than one); all must succeed. Returns its hash. */
    async settle(sales: DirectSale[], options: { wait?: boolean } = {}): Promise<Hex> {
      const calls = await Promise.all(sales.map(authorizedTransfer));
      const hash =
        calls.length === 1
          ? await wallet.sendTransaction({ to: USDC_ADDRESS, data: calls[0]! })
          : await wallet.writeContract({
              address: MULTICALL3_ADDRESS,
              abi: MULTICALL3_ABI,
              functionName: "aggregate3",
              args: [calls.map((callData) => ({ target: USDC_ADDRESS, allowFailure: false, callData }))],
              gas: BigInt(60_000 + 90_000 * calls.length),
            });
      if (options.wait !== false) {
        const receipt = await receiptOf(hash);
        if (receipt.status !== "success") throw new Error("settling the sales failed");
      }
      return hash;
    },
    /** A plain ERC-20 transfer from `from` (given gas money first): no authorization, so not a sale. */
    async plainTransfer(from: PrivateKeyAccount, to: Address, units: bigint): Promise<Hex> {
      await test.setBalance({ address: from.address, value: 10n ** 18n });
      const payer = createWalletClient({ account: from, chain: baseSepolia, transport }).extend(publicActions);
      const hash = await payer.writeContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "transfer",
        args: [to, units],
      });
      await receiptOf(hash);
      return hash;
    },
    /** Mints sandbox USDC to each address (anyone may mint the sandbox token), in one transaction. */
    async fund(to: Address[], units: bigint): Promise<void> {
      const calls = to.map((address) => ({
        target: USDC_ADDRESS,
        allowFailure: false,
        callData: encodeFunctionData({ abi: USDC_ABI, functionName: "mint", args: [address, units] }),
      }));
      const hash = await wallet.writeContract({
        address: MULTICALL3_ADDRESS,
        abi: MULTICALL3_ABI,
        functionName: "aggregate3",
        args: [calls],
        gas: BigInt(60_000 + 60_000 * calls.length),
      });
      if ((await receiptOf(hash)).status !== "success") throw new Error("minting failed");
    },
    test,
    reader: wallet,
  };
}
