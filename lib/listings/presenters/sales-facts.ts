// A listing's sales as every surface publishes them (read from the chain by lib/sales): counts, distinct buyers and
// volume over 7 and 30 days and all time, and the last sale with its transaction. Volumes are exact token units
// (USDC: 6 decimals) with the dollar string beside them.
import { unitsToUsd } from "@agora-mcp/protocol";
import { z } from "zod";
import type { SalesSummary } from "@/lib/listings/model";
import { transactionPlace } from "@/lib/chain/reader";

const salesWindowSchema = z.object({
  sales: z
    .number()
    .int()
    .describe(
      "Purchases settled on chain to the listing's payee wallets (a payment channel's claim counts once, however many calls it paid).",
    ),
  buyers: z.number().int().describe("Distinct paying wallets."),
  volumeUnits: z.string().describe("Total paid, in the token's smallest unit (USDC: 6 decimals), exact."),
  volumeUsd: z.string().describe("The same in dollars, e.g. 12.50."),
});

export const salesFactsSchema = z
  .object({
    last7d: salesWindowSchema,
    last30d: salesWindowSchema,
    allTime: salesWindowSchema,
    lastSale: z
      .object({
        network: z.string().describe("CAIP-2 network, e.g. eip155:84532."),
        txHash: z.string(),
        at: z.string().describe("Block time (ISO 8601)."),
        amountUnits: z.string(),
        amountUsd: z.string(),
        explorerUrl: z
          .string()
          .nullable()
          .describe("The transaction on the network's public block explorer; null on a local chain."),
        localChain: z
          .boolean()
          .describe(
            "The transaction is on a chain on the site's own machine (a sandbox), which no public explorer shows.",
          ),
      })
      .nullable(),
  })
  .describe(
    "Sales read from the chain: USDC payments to the payee wallets of the listing's latest check (transferWithAuthorization, x402's upto settlements at what they moved, and payment channels' claims).",
  );

type SalesFacts = z.infer<typeof salesFactsSchema>;

const usd = (units: string) => unitsToUsd(units);

export function salesFacts(summary: SalesSummary): SalesFacts {
  const window = (w: SalesSummary["last7d"]) => ({ ...w, volumeUsd: usd(w.volumeUnits) });
  const last = summary.lastSale;
  return {
    last7d: window(summary.last7d),
    last30d: window(summary.last30d),
    allTime: window(summary.allTime),
    lastSale: last
      ? { ...last, amountUsd: usd(last.amountUnits), ...transactionPlace(last.network, last.txHash) }
      : null,
  };
}

/** One line for people and models: "12 sales to 5 buyers in 30 days ($3.00); 40 all time". */
export function salesLine(facts: SalesFacts): string {
  const { last30d: m, allTime: all } = facts;
  if (all.sales === 0) return "No sales recorded on chain yet";
  const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(m.sales, "sale")} to ${plural(m.buyers, "buyer")} in 30 days ($${m.volumeUsd}); ${plural(all.sales, "sale")} ($${all.volumeUsd}) all time`;
}
