// The end-to-end run's chain: anvil answering as Base Sepolia with the sandbox USDC, on E2E_CHAIN_PORT, until
// Playwright stops it. The site reads sales from it (CHAIN_RPC_URLS); specs settle sales on it.
import { startChain } from "@/sandbox/chain";

const chain = await startChain({ port: Number(process.env.E2E_CHAIN_PORT), blockTime: 0 });
console.log(`sales chain on ${chain.rpcUrl}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void chain.stop().then(() => process.exit(0)));
