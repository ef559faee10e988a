// A listing's latest test purchase as every surface shows it: one sentence, the same on the detail page, the
// JSON API, the MCP tools and server.json's `_meta`.
import { formatUsd } from "@agora-mcp/protocol";
import { z } from "zod";
import type { TestPurchase } from "@/db/schema";
import { transactionPlace } from "@/lib/chain/reader";
import { formatDay } from "@/lib/dates";

export const testPurchaseSchema = z.object({
  outcome: z
    .enum(["delivered", "not-delivered", "refused", "drift"])
    .describe(
      "delivered: paid and a good result came back in time; not-delivered: paid (or may have) and nothing good came back; refused: the server refused the payment, or its tool failed and the payment was not used (nothing was paid); drift: it asked for another price or payee than its latest check recorded, so nothing was paid.",
    ),
  at: z.string().describe("ISO 8601 time the test purchase ended."),
  item: z.string().describe("The item or tool bought."),
  priceUsd: z.string().describe("The price paid or asked, in US dollars (USDC), e.g. $0.01."),
  deliveredMs: z
    .number()
    .int()
    .nullable()
    .describe("Milliseconds from paying to the result; null when nothing was delivered."),
  transaction: z.string().nullable().describe("The settlement transaction, when one was made."),
  explorerUrl: z.string().nullable().describe("The transaction on the public block explorer; null on a local chain."),
  localChain: z
    .boolean()
    .describe("The transaction is on a chain on the site's own machine (a sandbox), which no public explorer shows."),
  paid: z
    .boolean()
    .describe(
      "Whether the chain shows the payment was taken (false: refused, drift, or a timed-out call whose payment was not seen settled).",
    ),
  summary: z.string().describe("One sentence, as the listing's page shows it."),
});

export type TestPurchaseView = z.infer<typeof testPurchaseSchema>;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function testPurchaseSummary(v: Omit<TestPurchaseView, "summary">): string {
  const on = formatDay(new Date(v.at));
  if (v.outcome === "delivered")
    return `Test purchase on ${on}: paid ${v.priceUsd}, delivered in ${seconds(v.deliveredMs ?? 0)}`;
  if (v.outcome === "not-delivered")
    return `Test purchase on ${on}: ${v.paid ? "Paid, nothing delivered" : "Nothing delivered in time (payment not seen settled)"}`;
  if (v.outcome === "refused") return `Test purchase on ${on}: Refused payment`;
  return `Test purchase on ${on}: not made, the price or payee differed from the latest check`;
}

export function toTestPurchaseView(row: TestPurchase): TestPurchaseView | null {
  if (row.outcome === "pending") return null;
  const at = new Date(row.finishedAt ?? row.startedAt).toISOString();
  const view = {
    outcome: row.outcome,
    at,
    item: row.item,
    priceUsd: formatUsd(row.units),
    deliveredMs: row.outcome === "delivered" ? row.deliveredMs : null,
    transaction: row.transaction,
    ...(row.transaction ? transactionPlace(row.network, row.transaction) : { explorerUrl: null, localChain: false }),
    paid: ["paid", "disputed", "job-pending", "job-done"].includes(row.money),
  };
  return { ...view, summary: testPurchaseSummary(view) };
}
