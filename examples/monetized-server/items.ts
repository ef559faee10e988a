// What the reference server sells: a cheap item, a dearer one, a free one and an asynchronous one, built on
// the provider kit. The handlers make up their answers from their inputs (deterministic sample data, no
// network), because the example is about getting paid, not about weather.
import { createHash } from "node:crypto";
import type { ItemDefinition } from "@agora-mcp/server";

/** A placeholder that receives nothing; set SERVER_WALLET_ADDRESS to be paid. No key exists for it here. */
export const PLACEHOLDER_WALLET = "0x000000000000000000000000000000000000dEaD";
export const PAYMENT_METHOD = "USDC_BASE_SEPOLIA";

function sample(seed: string, max: number): number {
  return createHash("sha256").update(seed).digest().readUInt32BE(0) % max;
}

/** Seconds before an image job is done (spec: the user checks after 1–2 minutes); tests shorten it. */
export function imageJobSeconds(): number {
  const value = Number(process.env.REFERENCE_JOB_SECONDS ?? 90);
  return Number.isFinite(value) && value > 0 ? value : 90;
}

export function referenceItems(jobSeconds = imageJobSeconds()): ItemDefinition[] {
  return [
    {
      id: "weather-now",
      name: "Current weather",
      description: "Temperature, wind and sky for a city, right now (sample data).",
      price: "0.01",
      params: { city: "Example: Lisbon" },
      x402Tool: "weather",
      handler: ({ city }) => ({
        city,
        temperatureC: 5 + sample(`t:${city}`, 25),
        windKph: sample(`w:${city}`, 40),
        sky: ["clear", "cloudy", "rain", "fog"][sample(`s:${city}`, 4)],
        sample: true,
      }),
    },
    {
      id: "market-report",
      name: "Market report",
      description: "A structured one-page report on a market segment: size, growth, leading vendors (sample data).",
      price: "0.25",
      params: { segment: "Example: home solar batteries" },
      handler: ({ segment }) => ({
        segment,
        sizeUsdMillions: 100 + sample(`m:${segment}`, 9_000),
        growthPct: (sample(`g:${segment}`, 300) / 10).toFixed(1),
        vendors: ["Acme", "Globex", "Initech"].slice(0, 1 + sample(`v:${segment}`, 3)),
        sample: true,
      }),
    },
    {
      id: "page-screenshot",
      name: "Page screenshot",
      description: "A screenshot of a public web page. Free.",
      price: 0,
      params: { url: "Example: https://example.com" },
      handler: ({ url }) => ({
        url,
        image: `screenshot-${sample(url, 1e6)}.png`,
        width: 1280,
        height: 800,
        sample: true,
      }),
    },
    {
      id: "logo-render",
      name: "Logo render",
      description:
        "A 512×512 PNG logo from a short brief. Asynchronous: collect it with job-status after the time given.",
      price: "0.10",
      params: { brief: "Example: a fox made of circuit lines" },
      async: { checkAfterSeconds: jobSeconds },
      handler: async ({ brief }) => {
        await new Promise((r) => setTimeout(r, jobSeconds * 1000));
        return { brief, image: `logo-${sample(brief, 1e6)}.png`, size: "512x512", sample: true };
      },
    },
  ];
}
