// Bearer tokens for programs: `agora_` + 256 random bits, stored as SHA-256, with an expiry; deleting the
// row revokes the token on its next use.
import type { Db } from "@/db/types";
import {
  deleteUserToken,
  insertApiToken,
  listLiveTokens,
  takeLiveToken,
  type ApiTokenSummary,
} from "@/db/queries/api-tokens";
import type { ApiTokenKind } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { API_TOKEN_PREFIX, digest, randomSecret } from "@/lib/secrets";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens handed out by the JSON sign-in calls. */
export const SIGN_IN_TOKEN_DAYS = 30;

export type IssuedToken = { token: string; tokenType: "Bearer"; expiresAt: string; record: ApiTokenSummary };

export async function issueApiToken(
  db: Db,
  input: { userId: string; kind: ApiTokenKind; name: string; days: number },
): Promise<IssuedToken> {
  const token = randomSecret(API_TOKEN_PREFIX);
  const record = await insertApiToken(db, {
    userId: input.userId,
    kind: input.kind,
    name: input.name,
    // Enough to recognise the token in a list, far too little to guess the rest.
    prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
    tokenHash: digest(token),
    expiresAt: new Date(Date.now() + input.days * DAY_MS),
  });
  return { token, tokenType: "Bearer", expiresAt: record.expiresAt.toISOString(), record };
}

/** The token's owner, from `Authorization: Bearer agora_…`; a 401 when missing, unknown, revoked or expired. */
export async function authenticateBearer(db: Db, request: Request): Promise<{ userId: string; tokenId: string }> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw new ApiError(401, "Sign in required: send Authorization: Bearer <token>.", {
      code: "sign_in_required",
      headers: { "WWW-Authenticate": "Bearer" },
    });
  const token = match[1]!;
  const live =
    token.startsWith(API_TOKEN_PREFIX) && token.length <= 100 ? await takeLiveToken(db, digest(token)) : undefined;
  if (!live)
    throw new ApiError(401, "The API token is invalid, expired or revoked.", {
      code: "invalid_token",
      headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' },
    });
  return { userId: live.userId, tokenId: live.id };
}

export function listApiTokens(db: Db, userId: string): Promise<ApiTokenSummary[]> {
  return listLiveTokens(db, userId);
}

export async function revokeApiToken(db: Db, userId: string, tokenId: string): Promise<void> {
  if (!(await deleteUserToken(db, userId, tokenId)))
    throw new ApiError(404, "That token does not exist or was already revoked.");
}

/** The JSON the sign-in calls answer with: the spec's `token`, plus its type, expiry and the account. */
export function tokenAnswer(issued: IssuedToken, user: { id: string; email: string | null; name: string | null }) {
  return {
    token: issued.token,
    tokenType: issued.tokenType,
    expiresAt: issued.expiresAt,
    user: { id: user.id, email: user.email, name: user.name },
  };
}
