// Rate limits kept in the database so they hold across several app instances.
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { countHit, peekHits, purgeExpiredLimits } from "@/db/queries/rate-limits";
import type { Db } from "@/db/types";
import { ApiError } from "./errors";
import { env } from "./env";
import { logError } from "./log";

export type Limit = { name: string; max: number; windowSeconds: number; message?: string };

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const limits = {
  newsletterPerIp: { name: "newsletter:ip", max: 5, windowSeconds: HOUR },
  // Failed sign-ins only. The account's lock is keyed on the account *and* the client, so a stranger's
  // failures never lock the owner out; the per-address limit bounds how fast one client guesses at all.
  signInFailuresPerAccount: {
    name: "signin-fail:account-client",
    max: 10,
    windowSeconds: 15 * MINUTE,
    message: "Too many failed sign-in attempts for this account.",
  },
  signInFailuresPerIp: {
    name: "signin-fail:ip",
    max: 30,
    windowSeconds: 15 * MINUTE,
    message: "Too many failed sign-in attempts.",
  },
  registrationsPerIp: {
    name: "register:ip",
    max: 5,
    windowSeconds: HOUR,
    message: "Too many accounts created from this address.",
  },
  resetRequestsPerIp: {
    name: "reset-request:ip",
    max: 5,
    windowSeconds: HOUR,
    message: "Too many password reset requests.",
  },
  resetRequestsPerAccount: {
    name: "reset-request:account",
    max: 3,
    windowSeconds: HOUR,
    message: "Too many password reset requests for this address.",
  },
  resetAttemptsPerIp: { name: "reset:ip", max: 10, windowSeconds: HOUR, message: "Too many password reset attempts." },
  codeExchangesPerIp: {
    name: "github-code:ip",
    max: 20,
    windowSeconds: 15 * MINUTE,
    message: "Too many sign-in attempts.",
  },
  submissionsPerUser: {
    name: "submit:user",
    max: 10,
    windowSeconds: 24 * HOUR,
    message: "You have submitted too many servers today.",
  },
  verificationMailsPerUser: {
    name: "verify-mail:user",
    max: 3,
    windowSeconds: HOUR,
    message: "Too many verification emails requested.",
  },
  verificationAttemptsPerIp: {
    name: "verify:ip",
    max: 20,
    windowSeconds: HOUR,
    message: "Too many verification attempts.",
  },
  tokensPerUser: { name: "api-token:user", max: 10, windowSeconds: HOUR, message: "Too many API tokens created." },
  // Every probe reaches a host the owner picks and stores a row: re-checks and edits are bounded per user
  // and cooled down per listing; edits also count against the daily submission limit.
  rechecksPerUser: {
    name: "recheck:user",
    max: 30,
    windowSeconds: HOUR,
    message: "You have re-checked servers too often.",
  },
  recheckCooldownPerListing: {
    name: "recheck:listing",
    max: 1,
    windowSeconds: MINUTE,
    message: "This server was checked a moment ago.",
  },
  editCooldownPerListing: {
    name: "edit:listing",
    max: 1,
    windowSeconds: MINUTE,
    message: "This listing was changed a moment ago.",
  },
  // The submit form's tool list reaches a host the owner picks too (tools/list only, nothing stored).
  toolListsPerUser: {
    name: "tool-list:user",
    max: 30,
    windowSeconds: HOUR,
    message: "You have read servers' tool lists too often.",
  },
  // Buyer reviews: each one costs chain reads, so they are bounded per client address and per reviewing wallet.
  buyerReviewsPerIp: {
    name: "buyer-review:ip",
    max: 30,
    windowSeconds: HOUR,
    message: "Too many reviews sent from this address.",
  },
  buyerReviewsPerWallet: {
    name: "buyer-review:wallet",
    max: 10,
    windowSeconds: HOUR,
    message: "Too many reviews from this wallet.",
  },
  // Delivery receipts cost the same reads; a wallet sends one after each paid call, so it may send more of them.
  buyerReceiptsPerIp: {
    name: "buyer-receipt:ip",
    max: 120,
    windowSeconds: HOUR,
    message: "Too many delivery receipts sent from this address.",
  },
  buyerReceiptsPerWallet: {
    name: "buyer-receipt:wallet",
    max: 60,
    windowSeconds: HOUR,
    message: "Too many delivery receipts from this wallet.",
  },
  // The wallet page's balance reads spend the operator's RPC quota, which the sales index and reviews need too.
  walletBalanceReadsPerIp: {
    name: "wallet-balance:ip",
    max: 20,
    windowSeconds: 10 * MINUTE,
    message: "Too many balance reads from your address.",
  },
  // Claiming an imported listing: each token is a stored row, each verification reaches the claimed domain.
  claimTokensPerUser: {
    name: "claim-token:user",
    max: 20,
    windowSeconds: HOUR,
    message: "Too many claim tokens requested.",
  },
  claimChecksPerUser: {
    name: "claim-check:user",
    max: 30,
    windowSeconds: HOUR,
    message: "Too many claim verifications.",
  },
  // Agents page through search results a few calls at a time; this leaves room for bursts.
  mcpPerIp: { name: "mcp:ip", max: 120, windowSeconds: MINUTE },
  // The Bazaar's search is a program's too: the same room as the MCP endpoint's.
  discoverySearchPerIp: { name: "discovery-search:ip", max: 120, windowSeconds: MINUTE },
} satisfies Record<string, Limit>;

/**
 * Counts a hit (or `weight` hits: the calls of a batch) and throws a 429 with Retry-After once `subject`
 * has used up `limit` in the current window.
 */
export async function enforceLimit(db: Db, limit: Limit, subject: string, weight = 1): Promise<void> {
  if (env().RATE_LIMIT_DISABLED) return;
  const { count, resetAt } = await countHit(db, keyOf(limit, subject), limit.windowSeconds, weight);
  maybePurge(db);
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
  maybePurge(db);
}

/**
 * The row key: the limit's name and a digest of the subject, so any header or address a client sends
 * makes a key of the same short length (a 3 KB value once overflowed the primary-key index: a 500).
 * IPv6 addresses count per /64, the block one customer usually holds.
 */
export function keyOf(limit: Limit, subject: string): string {
  const digest = createHash("sha256").update(subjectOf(subject)).digest("base64url").slice(0, 32);
  return `${limit.name}:${digest}`;
}

function subjectOf(subject: string): string {
  const value = subject.toLowerCase();
  if (isIP(value) !== 6) return value;
  const groups = expandIpv6(value);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : value;
}

/** The eight groups of an IPv6 address, or undefined for one with an embedded IPv4 tail. */
function expandIpv6(ip: string): string[] | undefined {
  if (ip.includes(".")) return undefined;
  const [head, tail] = ip.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}

// Expired rows are deleted now and then by whichever instance counts a hit (bounded batches).
const PURGE_EVERY_MS = 5 * MINUTE * 1000;
let lastPurge = 0;

function maybePurge(db: Db): void {
  const now = Date.now();
  if (now - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now;
  purgeExpiredLimits(db).catch((error: unknown) => logError("rate-limit purge failed", error));
}

function tooMany(limit: Limit, resetAt: Date): ApiError {
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  const lead = limit.message ?? "Too many requests.";
  return new ApiError(429, `${lead} Try again in ${formatWait(retryAfter)}.`, {
    headers: { "Retry-After": String(retryAfter) },
  });
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
