// The chains and tokens a MonetizedMCP payment method names, in every spelling the protocols use:
// MonetizedMCP's `USDC_BASE_SEPOLIA`, x402 v1's `base-sepolia`, x402 v2's CAIP-2 `eip155:84532`.

export type PaymentMethod = "USDC_BASE_SEPOLIA" | "USDC_BASE_MAINNET";

export type PaymentNetwork = {
  paymentMethod: PaymentMethod;
  /** x402 version 1 network name. */
  v1Network: "base-sepolia" | "base";
  /** x402 version 2 network (CAIP-2). */
  caip2: "eip155:84532" | "eip155:8453";
  chainId: 84532 | 8453;
  label: string;
  testnet: boolean;
  /** USDC on this chain. */
  asset: `0x${string}`;
  /** The token's EIP-712 domain name and version: what an EIP-3009 signature commits to. */
  eip712: { name: string; version: string };
};

export const BASE_SEPOLIA: PaymentNetwork = {
  paymentMethod: "USDC_BASE_SEPOLIA",
  v1Network: "base-sepolia",
  caip2: "eip155:84532",
  chainId: 84532,
  label: "Base Sepolia",
  testnet: true,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  eip712: { name: "USDC", version: "2" },
};

export const BASE_MAINNET: PaymentNetwork = {
  paymentMethod: "USDC_BASE_MAINNET",
  v1Network: "base",
  caip2: "eip155:8453",
  chainId: 8453,
  label: "Base",
  testnet: false,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  eip712: { name: "USD Coin", version: "2" },
};

export const PAYMENT_NETWORKS: readonly PaymentNetwork[] = [BASE_SEPOLIA, BASE_MAINNET];

/** Payment methods Agora verifies listings for today (the developer preview runs on Base Sepolia). */
export const SUPPORTED_PAYMENT_METHODS = ["USDC_BASE_SEPOLIA"] as const;

/** The network a name refers to, in any of its spellings; undefined for anything else. */
export function findNetwork(name: string | number | undefined | null): PaymentNetwork | undefined {
  if (name === undefined || name === null) return undefined;
  const key = String(name).trim();
  const upper = key.toUpperCase();
  return PAYMENT_NETWORKS.find(
    (n) =>
      n.paymentMethod === upper ||
      n.v1Network === key.toLowerCase() ||
      n.caip2 === key.toLowerCase() ||
      String(n.chainId) === key,
  );
}

/**
 * The network a setting names; Base Sepolia when unset. Mainnet only when named explicitly
 * ("base", "base-mainnet", "USDC_BASE_MAINNET", "eip155:8453", "8453"), never by a typo.
 */
export function networkFromSetting(value: string | undefined): PaymentNetwork {
  if (value === undefined || value.trim() === "") return BASE_SEPOLIA;
  const key = value.trim().toLowerCase();
  if (key === "base-mainnet" || key === "mainnet") return BASE_MAINNET;
  if (key === "sepolia") return BASE_SEPOLIA;
  const network = findNetwork(value);
  if (!network) throw new Error(`Unknown network "${value.slice(0, 40)}": use base-sepolia (default) or base`);
  return network;
}

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && EVM_ADDRESS.test(a) && EVM_ADDRESS.test(b) && a.toLowerCase() === b.toLowerCase();
}
