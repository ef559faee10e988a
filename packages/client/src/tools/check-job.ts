// check_job: collects an asynchronous item, proving with this wallet that it paid.
import { z } from "zod";
import { checkJob } from "../jobs.js";
import { answer, guarded, type ToolDeps } from "./answer.js";

export function registerCheckJob({ mcp, wallet, ledger, settings }: ToolDeps): void {
  mcp.registerTool(
    "check_job",
    {
      title: "Collect an asynchronous item",
      description:
        "Asks the server for the result of an asynchronous purchase (a job id from purchase or the wallet tool), proving with this wallet that it paid.",
      inputSchema: { jobId: z.string().min(1).max(200) },
      outputSchema: {
        status: z.enum(["pending", "done", "failed", "unknown"]),
        message: z.string(),
        jobId: z.string(),
        result: z.unknown().optional(),
        checkAfterSeconds: z.number().optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "check_job", async ({ jobId }) => {
      const status = await checkJob(jobId, { ledger, wallet, settings });
      const shown = status.result === undefined ? "" : `\nResult: ${JSON.stringify(status.result)}`;
      return answer(
        wallet,
        `${status.message}${shown}`,
        status as unknown as Record<string, unknown>,
        status.status === "failed" || status.status === "unknown",
      );
    }),
  );
}
