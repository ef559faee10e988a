// review: rates a server this wallet paid, signed by the wallet, after the person confirms the text.
import { z } from "zod";
import { BUYER_REVIEW_TEXT_MAX } from "@agora-mcp/protocol";
import { review } from "../review.js";
import { CONFIRMATION_ID, guarded, reviewOutput, reviewTool, type ToolDeps } from "./answer.js";

export function registerReview(tool: ToolDeps): void {
  const { mcp, wallet } = tool;
  const { deps: reviewDeps, answer: reviewAnswer } = reviewTool(tool);

  mcp.registerTool(
    "review",
    {
      title: "Review a server you bought from",
      description:
        "Rates a listed server 1–5 with a short plain-text review, signed by this wallet for one of its paid purchases from that server (the latest, or the transaction named). " +
        "The registry shows it as a verified purchase only after checking the payment on chain. The person confirms the text first when confirmations are on.",
      inputSchema: {
        server: z.string().min(1).max(200).describe("Registry id or slug of the server you bought from"),
        rating: z.number().int().min(1).max(5),
        text: z.string().max(BUYER_REVIEW_TEXT_MAX).describe("Plain text; shown exactly as written"),
        transaction: z
          .string()
          .max(100)
          .optional()
          .describe("The purchase's transaction hash, when not the latest from that server"),
        confirmationId: CONFIRMATION_ID,
      },
      outputSchema: reviewOutput("posted"),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(wallet, "review", async (args) => reviewAnswer(await review(args, reviewDeps))),
  );
}
