// A chain on this machine (the sandbox's anvil answers as Base Sepolia on loopback): its transactions and balances
// exist only there, so the client names it as the local chain and never sends the person to a public faucet or
// explorer, which would show nothing of it.
import type { PaymentNetwork } from "@agora-mcp/protocol";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Whether the RPC is on this machine's loopback. */
export function isLocalChain(rpcUrl: string): boolean {
  try {
    return LOOPBACK.test(new URL(rpcUrl).hostname.replace(/\.$/, ""));
  } catch {
    return false;
  }
}

/**
 * The chain as a sentence names it: "Base Sepolia", or "the local chain (answering as Base Sepolia)"; with
 * `withUrl`, "the local chain at http://127.0.0.1:8545 (answering as Base Sepolia)".
 */
export function chainName(network: PaymentNetwork, rpcUrl: string, { withUrl = false } = {}): string {
  if (!isLocalChain(rpcUrl)) return network.label;
  return `the local chain${withUrl ? ` at ${rpcUrl}` : ""} (answering as ${network.label})`;
}
