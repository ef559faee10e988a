// revoke_review: withdraws this wallet's review of a server, signed by the wallet, after the person confirms.
import { z } from "zod";
import { revokeReview } from "../review.js";
import { CONFIRMATION_ID, guarded, reviewOutput, reviewTool, type ToolDeps } from "./answer.js";

export function registerRevokeReview(tool: ToolDeps): void {
  const { mcp, wallet } = tool;
  const { deps: reviewDeps, answer: reviewAnswer } = reviewTool(tool);

  mcp.registerTool(
    "revoke_review",
    {
      title: "Withdraw your review of a server",
      description:
        "Withdraws the review this wallet wrote for one of its paid purchases from a server (the latest, or the transaction named), signed by this wallet. " +
        "The registry stops showing and counting it; that purchase cannot be reviewed again. The person confirms first when confirmations are on.",
      inputSchema: {
        server: z.string().min(1).max(200).describe("Registry id or slug of the server you reviewed"),
        transaction: z
          .string()
          .max(100)
          .optional()
          .describe("The reviewed purchase's transaction hash, when not the latest from that server"),
        confirmationId: CONFIRMATION_ID,
      },
      outputSchema: reviewOutput("revoked"),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    guarded(wallet, "revoke_review", async (args) => reviewAnswer(await revokeReview(args, reviewDeps))),
  );
}
