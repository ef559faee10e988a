// Collecting an asynchronous item: the job-status tool hands the result to the wallet that paid, proven by
// an EIP-191 signature of "Agora job-status <jobId>".
import { JOB_STATUS_TOOL, jobStatusMessage, readToolPayload, Quirks } from "@agora-mcp/protocol";
import { textOf, withConnection, type ConnectionOptions } from "./connections.js";
import type { Ledger } from "./ledger.js";
import { sendJobReceipt } from "./purchase/delivery-receipt.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

export type JobCheck = {
  status: "pending" | "done" | "failed" | "unknown";
  message: string;
  jobId: string;
  result?: unknown;
  checkAfterSeconds?: number;
};

/** `settings`: when given, a job seen done for the first time sends its delivery receipt (purchase/delivery-receipt.ts). */
export async function checkJob(
  jobId: string,
  { ledger, wallet, settings }: { ledger: Ledger; wallet: Wallet; settings?: Settings },
): Promise<JobCheck> {
  const attempt = ledger.attempts().find((a) => a.jobId === jobId);
  if (!attempt?.serverUrl)
    return { status: "unknown", jobId, message: `No purchase in this wallet's ledger has job "${jobId}".` };
  const check = await readJob(attempt.serverUrl, jobId, { wallet, server: attempt.server, item: attempt.item });
  if (check.status === "done") {
    await ledger.update(attempt.id, { status: "job-done" });
    // Sent the first time the job is seen done only (the registry keeps one receipt per sale anyway).
    if (settings && attempt.status === "job-pending" && attempt.transaction)
      sendJobReceipt(settings, wallet, { serverUrl: attempt.serverUrl, transaction: attempt.transaction });
  }
  return check;
}

/** Asks the server that sold job `jobId` how it stands, signed by the wallet that paid. */
export async function readJob(
  serverUrl: string,
  jobId: string,
  {
    wallet,
    server,
    item,
    connection,
  }: { wallet: Pick<Wallet, "account">; server: string; item: string; connection?: ConnectionOptions },
): Promise<JobCheck> {
  const signature = await wallet.account.signMessage({ message: jobStatusMessage(jobId) });
  return withConnection(
    serverUrl,
    async (c) => {
      const result = await c.call(JOB_STATUS_TOOL, { jobId, signature });
      if (result.isError)
        return { status: "failed" as const, jobId, message: `${server} answered: ${textOf(result).slice(0, 300)}` };
      const payload = readToolPayload(JOB_STATUS_TOOL, result, new Quirks()) as
        { status?: string; toolResult?: unknown; checkAfterSeconds?: number; error?: string } | undefined;
      if (payload?.status === "done")
        return {
          status: "done" as const,
          jobId,
          message: `"${item}" from ${server} is ready.`,
          result: payload.toolResult,
        };
      if (payload?.status === "pending") {
        const wait = payload.checkAfterSeconds ?? 30;
        return {
          status: "pending" as const,
          jobId,
          checkAfterSeconds: wait,
          message: `Still being prepared; look again in about ${wait} seconds.`,
        };
      }
      return {
        status: "failed" as const,
        jobId,
        message: `The job failed: ${payload?.error ?? textOf(result).slice(0, 300)}`,
      };
    },
    connection,
  );
}
