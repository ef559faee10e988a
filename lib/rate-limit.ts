// Rate limits kept in the database so they hold across several app instances.
import { countHit } from "@/db/queries/rate-limits";
import type { Db } from "@/db/types";
import { ApiError } from "./errors";
import { env } from "./env";

export type Limit = { name: string; max: number; windowSeconds: number };

export const limits = {
  newsletterPerIp: { name: "newsletter:ip", max: 5, windowSeconds: 60 * 60 },
  // Agents page through search results a few calls at a time; this leaves room for bursts.
  mcpPerIp: { name: "mcp:ip", max: 120, windowSeconds: 60 },
} satisfies Record<string, Limit>;

/** Throws a 429 with Retry-After once `subject` has used up `limit` in the current window. */
export async function enforceLimit(db: Db, limit: Limit, subject: string): Promise<void> {
  if (env().RATE_LIMIT_DISABLED) return;
  const { count, resetAt } = await countHit(db, `${limit.name}:${subject}`, limit.windowSeconds);
  if (count > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
    throw new ApiError(429, `Too many requests. Try again in ${formatWait(retryAfter)}.`, undefined, { "Retry-After": String(retryAfter) });
  }
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
