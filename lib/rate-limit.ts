// Rate limits kept in the database so they hold across several app instances.
import { countHit, peekHits } from "@/db/queries/rate-limits";
import type { Db } from "@/db/types";
import { ApiError } from "./errors";
import { env } from "./env";

export type Limit = { name: string; max: number; windowSeconds: number; message?: string };

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const limits = {
  newsletterPerIp: { name: "newsletter:ip", max: 5, windowSeconds: HOUR },
  // Failed sign-ins only; a correct password is refused too once the account or address is locked out.
  signInFailuresPerAccount: { name: "signin-fail:account", max: 10, windowSeconds: 15 * MINUTE, message: "Too many failed sign-in attempts for this account." },
  signInFailuresPerIp: { name: "signin-fail:ip", max: 30, windowSeconds: 15 * MINUTE, message: "Too many failed sign-in attempts." },
  registrationsPerIp: { name: "register:ip", max: 5, windowSeconds: HOUR, message: "Too many accounts created from this address." },
  resetRequestsPerIp: { name: "reset-request:ip", max: 5, windowSeconds: HOUR, message: "Too many password reset requests." },
  resetRequestsPerAccount: { name: "reset-request:account", max: 3, windowSeconds: HOUR, message: "Too many password reset requests for this address." },
  resetAttemptsPerIp: { name: "reset:ip", max: 10, windowSeconds: HOUR, message: "Too many password reset attempts." },
  codeExchangesPerIp: { name: "github-code:ip", max: 20, windowSeconds: 15 * MINUTE, message: "Too many sign-in attempts." },
  submissionsPerUser: { name: "submit:user", max: 10, windowSeconds: 24 * HOUR, message: "You have submitted too many servers today." },
  tokensPerUser: { name: "api-token:user", max: 10, windowSeconds: HOUR, message: "Too many API tokens created." },
  // Every probe reaches a host the owner picks and stores a row: re-checks and edits are bounded per user
  // and cooled down per listing; edits also count against the daily submission limit.
  rechecksPerUser: { name: "recheck:user", max: 30, windowSeconds: HOUR, message: "You have re-checked servers too often." },
  recheckCooldownPerListing: { name: "recheck:listing", max: 1, windowSeconds: MINUTE, message: "This server was checked a moment ago." },
  editCooldownPerListing: { name: "edit:listing", max: 1, windowSeconds: MINUTE, message: "This listing was changed a moment ago." },
  // Agents page through search results a few calls at a time; this leaves room for bursts.
  mcpPerIp: { name: "mcp:ip", max: 120, windowSeconds: MINUTE },
} satisfies Record<string, Limit>;

/**
 * Counts a hit (or `weight` hits: the calls of a batch) and throws a 429 with Retry-After once `subject`
 * has used up `limit` in the current window.
 */
export async function enforceLimit(db: Db, limit: Limit, subject: string, weight = 1): Promise<void> {
  if (env().RATE_LIMIT_DISABLED) return;
  const { count, resetAt } = await countHit(db, keyOf(limit, subject), limit.windowSeconds, weight);
  if (count > limit.max) throw tooMany(limit, resetAt);
}

/** Throws a 429 when `subject` has used up `limit`, without counting this request (for counting failures only). */
export async function assertUnderLimit(db: Db, limit: Limit, subject: string): Promise<void> {
  if (env().RATE_LIMIT_DISABLED) return;
  const hits = await peekHits(db, keyOf(limit, subject));
  if (hits && hits.count >= limit.max) throw tooMany(limit, hits.resetAt);
}

/** Counts one failure against `limit` (paired with assertUnderLimit). */
export async function recordFailure(db: Db, limit: Limit, subject: string): Promise<void> {
  if (env().RATE_LIMIT_DISABLED) return;
  await countHit(db, keyOf(limit, subject), limit.windowSeconds);
}

function keyOf(limit: Limit, subject: string): string {
  return `${limit.name}:${subject.toLowerCase()}`;
}

function tooMany(limit: Limit, resetAt: Date): ApiError {
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  const lead = limit.message ?? "Too many requests.";
  return new ApiError(429, `${lead} Try again in ${formatWait(retryAfter)}.`, undefined, { "Retry-After": String(retryAfter) });
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
