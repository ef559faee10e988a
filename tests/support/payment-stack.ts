// A real payment stack on loopback for tests: anvil answering as Base Sepolia with the sandbox USDC at the
// real USDC address, and an x402 facilitator settling on it. Buyers are fresh keys funded by minting.
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { ANVIL_TEST_KEYS, startChain, type LocalChain } from "@/sandbox/chain";
import { startFacilitator, type LocalFacilitator } from "@/sandbox/facilitator";

export type PaymentStack = {
  chain: LocalChain;
  facilitator: LocalFacilitator;
  /** A fresh wallet holding `units` of USDC. */
  fundedBuyer: (units: bigint) => Promise<PrivateKeyAccount>;
  /** A fresh address that holds nothing (a provider's wallet). */
  freshAddress: () => `0x${string}`;
  stop: () => Promise<void>;
};

export async function startPaymentStack({ blockTime = 0 }: { blockTime?: number } = {}): Promise<PaymentStack> {
  const chain = await startChain({ blockTime });
  const facilitator = await startFacilitator({ rpcUrl: chain.rpcUrl, privateKey: ANVIL_TEST_KEYS.facilitator });
  return {
    chain,
    facilitator,
    async fundedBuyer(units) {
      const buyer = privateKeyToAccount(generatePrivateKey());
      await chain.mintUsdc(buyer.address, units);
      return buyer;
    },
    freshAddress: () => privateKeyToAccount(generatePrivateKey()).address,
    async stop() {
      await facilitator.close();
      await chain.stop();
    },
  };
}
