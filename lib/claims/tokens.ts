// One-time claim tokens: shown once, stored as a digest, bound to the account and the namespace, expiring.
import { insertClaimToken } from "@/db/queries/claims";
import type { Db } from "@/db/types";
import { digest, randomSecret } from "@/lib/secrets";
import { enforceLimit, limits } from "@/lib/rate-limit";

/** How long a domain's owner has to publish the token. */
const CLAIM_TOKEN_HOURS = 48;
/** What is published, in the file or the TXT record: this prefix, then the token. */
const CLAIM_RECORD_PREFIX = "agora-claim=";
/** Finds every token-shaped value published after the prefix. */
const RECORD_PATTERN = /agora-claim=([A-Za-z0-9_-]{32,64})/g;

export type IssuedClaimToken = { token: string; record: string; expiresAt: Date };

export async function issueClaimToken(
  db: Db,
  userId: string,
  namespace: string,
  now = new Date(),
): Promise<IssuedClaimToken> {
  await enforceLimit(db, limits.claimTokensPerUser, userId);
  const token = randomSecret();
  const expiresAt = new Date(now.getTime() + CLAIM_TOKEN_HOURS * 3600_000);
  await insertClaimToken(db, { userId, namespace, tokenHash: digest(token), expiresAt });
  return { token, record: `${CLAIM_RECORD_PREFIX}${token}`, expiresAt };
}

/** The tokens a published text carries (a file's body, or one TXT record's strings joined), at most five. */
export function publishedTokens(text: string): string[] {
  return [...new Set([...text.matchAll(RECORD_PATTERN)].map((m) => m[1]!))].slice(0, 5);
}
