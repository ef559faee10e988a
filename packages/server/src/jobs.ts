// Asynchronous items: the paid handler runs in the background and its result waits here for the buyer,
// who proves it is them by signing the job id with the wallet that paid.
import { randomBytes } from "node:crypto";
import { verifyMessage } from "viem";
import { jobStatusMessage, type JobStatus } from "@agora-mcp/protocol";

type Job = {
  id: string;
  /** The wallet that paid; only it may collect the result. */
  owner: `0x${string}`;
  readyAt: number;
  checkAfterSeconds: number;
  state:
    | { status: "pending" }
    | { status: "done"; toolResult: unknown; transaction?: string }
    | { status: "failed"; error: string };
  createdAt: number;
};

/** Results are kept a day; the store holds at most this many jobs (oldest dropped first). */
const JOB_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_JOBS = 10_000;

export class JobStore {
  private readonly jobs = new Map<string, Job>();

  /** `work` answers the result and the settlement's transaction, or throws the sentence the buyer reads. */
  start(
    owner: `0x${string}`,
    checkAfterSeconds: number,
    work: () => Promise<{ toolResult: unknown; transaction?: string }>,
  ): Job {
    this.prune();
    const job: Job = {
      id: `job_${randomBytes(16).toString("hex")}`,
      owner,
      checkAfterSeconds,
      readyAt: Date.now() + checkAfterSeconds * 1000,
      state: { status: "pending" },
      createdAt: Date.now(),
    };
    this.jobs.set(job.id, job);
    work().then(
      ({ toolResult, transaction }) =>
        (job.state = { status: "done", toolResult, ...(transaction ? { transaction } : {}) }),
      (error: unknown) =>
        (job.state = {
          status: "failed",
          error: error instanceof Error ? error.message.slice(0, 600) : "the item failed",
        }),
    );
    return job;
  }

  /** The job's state for its owner; undefined (indistinguishable from an unknown id) for anybody else. */
  async statusFor(jobId: string, signature: `0x${string}`): Promise<JobStatus | undefined> {
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    const valid = await verifyMessage({ address: job.owner, message: jobStatusMessage(jobId), signature }).catch(
      () => false,
    );
    if (!valid) return undefined;
    if (job.state.status === "done")
      return {
        jobId,
        status: "done",
        toolResult: job.state.toolResult,
        ...(job.state.transaction ? { transaction: job.state.transaction } : {}),
      };
    if (job.state.status === "failed") return { jobId, status: "failed", error: job.state.error };
    const wait = Math.max(5, Math.ceil((job.readyAt - Date.now()) / 1000));
    return { jobId, status: "pending", checkAfterSeconds: wait };
  }

  private prune(): void {
    const cutoff = Date.now() - JOB_TTL_MS;
    for (const [id, job] of this.jobs) {
      if (job.createdAt >= cutoff && this.jobs.size < MAX_JOBS) break;
      this.jobs.delete(id);
    }
  }
}
