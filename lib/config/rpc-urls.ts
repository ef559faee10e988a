// CHAIN_RPC_URLS: where the site reads each payment network's chain (sales, buyer reviews, test purchases).
// A comma-separated list of `network=url`, the network in any spelling the protocols use
// (`eip155:84532`, `base-sepolia`, `USDC_BASE_SEPOLIA`, `84532`). The sandbox points Base Sepolia at its anvil.
import { findNetwork, type PaymentNetwork } from "@agora-mcp/protocol";
import { z } from "zod";

type RpcEndpoint = { network: PaymentNetwork; url: string };

const rpcUrl = z.url({ protocol: /^https?$/, message: "must be an http(s) URL" });

/** Parses the setting; throws with a message naming the bad entry (lib/env.ts turns it into a start-up error). */
export function parseRpcUrls(value: string | undefined): RpcEndpoint[] {
  if (!value?.trim()) return [];
  const seen = new Set<string>();
  return value.split(",").map((entry) => {
    const [name, ...rest] = entry.trim().split("=");
    const network = findNetwork(name);
    if (!network) throw new Error(`"${entry.trim()}": unknown network "${name}" (use eip155:84532 or eip155:8453)`);
    const url = rpcUrl.safeParse(rest.join("=").trim());
    if (!url.success) throw new Error(`"${entry.trim()}": the RPC URL ${url.error.issues[0]!.message}`);
    if (seen.has(network.caip2)) throw new Error(`"${entry.trim()}": ${network.label} is given twice`);
    seen.add(network.caip2);
    return { network, url: url.data };
  });
}
