// The end-to-end run's payment network: anvil answering as Base Sepolia with the sandbox USDC, and an x402
// facilitator settling on it, on fixed loopback ports (tests/e2e/support/ports.ts). The site reads this chain
// through CHAIN_RPC_URLS; specs buy from provider kits that settle through this facilitator.
import { ANVIL_TEST_KEYS, startChain } from "@/sandbox/chain";
import { startFacilitator } from "@/sandbox/facilitator";
import { chainPort, facilitatorPort } from "./ports";

async function main() {
  const chain = await startChain({ port: chainPort, blockTime: 0 });
  const facilitator = await startFacilitator({
    rpcUrl: chain.rpcUrl,
    privateKey: ANVIL_TEST_KEYS.facilitator,
    port: facilitatorPort,
  });
  console.log(`e2e chain ${chain.rpcUrl}, facilitator ${facilitator.url}`);
  const stop = async () => {
    await facilitator.close();
    await chain.stop();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
