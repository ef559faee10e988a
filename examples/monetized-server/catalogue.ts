// What the reference server sells, and where payments would go. The wallet is a placeholder
// address that receives nothing; no private key exists anywhere in this example.
export const PAYMENT_METHOD = "USDC_BASE_SEPOLIA";

export const WALLET_ADDRESS = process.env.SERVER_WALLET_ADDRESS ?? "0x000000000000000000000000000000000000dEaD";

export type CatalogueItem = {
  id: string;
  name: string;
  description: string;
  /** USDC per call. */
  amount: number;
  params: Record<string, string>;
};

export const catalogue: CatalogueItem[] = [
  {
    id: "weather-now",
    name: "Current weather",
    description: "Temperature, wind and sky for a city, right now.",
    amount: 0.01,
    params: { city: "Example: Lisbon" },
  },
  {
    id: "page-summary",
    name: "Page summary",
    description: "A five-sentence summary of a public web page.",
    amount: 0.05,
    params: { url: "Example: https://example.com/article" },
  },
  {
    id: "logo-render",
    name: "Logo render",
    description: "A 512×512 PNG logo from a short brief.",
    amount: 0.25,
    params: { brief: "Example: a fox made of circuit lines" },
  },
];
