// Asynchronous items: a purchase answers a job id at once, and the free `job-status` tool hands the result
// to the buyer who paid, proven by a signature of this message with the paying wallet (EIP-191).
import { z } from "zod";

export function jobStatusMessage(jobId: string): string {
  return `Agora job-status ${jobId}`;
}

export const jobStatusArgs = {
  jobId: z.string().min(1).max(200).describe("The job id a purchase of an asynchronous item answered"),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/)
    .max(1_000)
    .describe('EIP-191 signature of "Agora job-status <jobId>" by the wallet that paid'),
};

export type JobStatus =
  | { jobId: string; status: "pending"; checkAfterSeconds: number }
  /** `transaction`: the payment's settlement (an x402 purchase settles only once the result is ready). */
  | { jobId: string; status: "done"; toolResult: unknown; transaction?: string }
  | { jobId: string; status: "failed"; error: string };
