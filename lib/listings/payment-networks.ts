// What each MonetizedMCP payment method id means on chain: the network (both spellings x402 uses), the
// token contract and its EIP-712 domain. Ids Agora does not know keep their id and nothing else.
export type PaymentNetwork = {
  /** x402 version 1 name, e.g. base-sepolia. */
  network: string;
  /** CAIP-2 id (x402 version 2), e.g. eip155:84532. */
  caip2: string;
  asset: "USDC";
  assetAddress: string;
  /** The token's EIP-712 domain, which x402's `exact` scheme signs against. */
  eip712: { name: string; version: string };
  decimals: number;
};

const NETWORKS: Record<string, PaymentNetwork> = {
  USDC_BASE_SEPOLIA: {
    network: "base-sepolia",
    caip2: "eip155:84532",
    asset: "USDC",
    assetAddress: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    eip712: { name: "USDC", version: "2" },
    decimals: 6,
  },
  USDC_BASE_MAINNET: {
    network: "base",
    caip2: "eip155:8453",
    asset: "USDC",
    assetAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    eip712: { name: "USD Coin", version: "2" },
    decimals: 6,
  },
};

export function paymentNetwork(paymentMethod: string): PaymentNetwork | null {
  return NETWORKS[paymentMethod] ?? null;
}

/** An amount in whole tokens (0.02) as an integer string of the token's smallest unit ("20000"), exactly. */
export function toSmallestUnit(amount: number, decimals: number): string {
  const [whole, fraction = ""] = amount.toFixed(decimals).split(".");
  return BigInt(`${whole}${fraction}`).toString();
}
