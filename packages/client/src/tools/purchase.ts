// purchase: one item from a listed server, within the spending policy, with the person's yes when needed; success
// only after the chain shows exactly the price went to the payee (purchase/).
import type { InputRequiredResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { askerFor } from "../confirm.js";
import { OUTCOME_CODES, PURCHASE_STATUSES, purchase } from "../purchase/index.js";
import { answer, CONFIRMATION_ID, guarded, type ToolDeps } from "./answer.js";

const purchaseOutput = {
  status: z.enum(PURCHASE_STATUSES),
  code: z
    .enum(OUTCOME_CODES)
    .describe("Why the purchase ended as it did, as a value; decide by this, not by the message"),
  message: z.string(),
  signed: z.boolean().describe("Whether a payment authorisation was signed"),
  server: z.string().optional(),
  serverUrl: z.string().optional(),
  item: z.string().optional(),
  priceUsd: z.string().optional(),
  transaction: z.string().optional(),
  orderId: z.string().optional(),
  result: z.unknown().optional(),
  jobId: z.string().optional(),
  checkAfterSeconds: z.number().optional(),
  confirmationId: z.string().optional(),
  missingParams: z.array(z.string()).optional(),
  payTo: z.string().optional().describe("The wallet the server asked to be paid"),
  answeredInMs: z.number().optional().describe("Milliseconds from sending the paid call to its answer"),
  rule: z.string().optional().describe("The spending-policy rule that refused the purchase"),
};

export function registerPurchase({
  mcp,
  settings,
  wallet,
  ledger,
  chain,
  confirmations,
  confirmationStates: states,
}: ToolDeps): void {
  mcp.registerTool(
    "purchase",
    {
      title: "Buy an item",
      description:
        "Buys one item from a listed server (a URL only with ENABLE_UNSAFE_DIRECT_ACCESS). Re-reads the price from the server, checks the parameters, " +
        "checks every rule of the spending policy (budgets, limits, allow- and deny-lists, purchase rates) and the balance before signing, asks the person at or above the confirmation threshold, " +
        "and reports success only after checking on chain that exactly the price went to the payee.",
      inputSchema: {
        server: z.string().min(1).max(500).describe("Registry id or slug, or a URL with direct access on"),
        item: z.string().min(1).max(200).describe("The item's id, or the paid tool's name, from explore_server"),
        params: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("The item's parameters, named as explore_server lists them"),
        confirmationId: CONFIRMATION_ID,
        maxPriceUsd: z
          .string()
          .max(20)
          .optional()
          .describe("Refuse if the server now asks more than this (dollars, e.g. 0.25)"),
      },
      outputSchema: purchaseOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded<Parameters<typeof purchase>[0], InputRequiredResult>(wallet, "purchase", async (args, ctx) => {
      const outcome = await purchase(args, {
        settings,
        wallet,
        ledger,
        chain,
        confirmations,
        asker: askerFor(mcp.server, ctx, states),
      });
      if (outcome.inputRequired) return outcome.inputRequired;
      const failed =
        outcome.status === "refused" ||
        outcome.status === "drift" ||
        outcome.status === "failed" ||
        outcome.status === "disputed";
      const shown =
        outcome.result === undefined
          ? ""
          : `\nResult: ${typeof outcome.result === "string" ? outcome.result : JSON.stringify(outcome.result)}`;
      return answer(wallet, `${outcome.message}${shown}`, outcome as unknown as Record<string, unknown>, failed);
    }),
  );
}
