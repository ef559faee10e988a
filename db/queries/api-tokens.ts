// Bearer tokens, looked up by digest; the token itself is never stored.
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import { apiTokens, type ApiToken, type ApiTokenKind } from "../schema";
import type { Db } from "../types";

export type ApiTokenSummary = Pick<
  ApiToken,
  "id" | "kind" | "name" | "prefix" | "createdAt" | "lastUsedAt" | "expiresAt"
>;

export async function insertApiToken(
  db: Db,
  row: { userId: string; kind: ApiTokenKind; name: string; prefix: string; tokenHash: string; expiresAt: Date },
): Promise<ApiTokenSummary> {
  await db.delete(apiTokens).where(and(eq(apiTokens.userId, row.userId), lt(apiTokens.expiresAt, new Date())));
  const [created] = await db.insert(apiTokens).values(row).returning();
  return created!;
}

/** Checks a token and records its use in one statement; undefined when unknown, revoked or expired. */
export async function takeLiveToken(db: Db, tokenHash: string): Promise<{ id: string; userId: string } | undefined> {
  const [row] = await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.tokenHash, tokenHash), gt(apiTokens.expiresAt, sql`now()`)))
    .returning({ id: apiTokens.id, userId: apiTokens.userId });
  return row;
}

export async function listLiveTokens(db: Db, userId: string): Promise<ApiTokenSummary[]> {
  return db
    .select({
      id: apiTokens.id,
      kind: apiTokens.kind,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), gt(apiTokens.expiresAt, new Date())))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Deletes one of the user's tokens; false when it is not theirs or already gone. */
export async function deleteUserToken(db: Db, userId: string, tokenId: string): Promise<boolean> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.userId, userId), eq(apiTokens.id, tokenId)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

export async function deleteUserTokens(db: Db, userId: string): Promise<void> {
  await db.delete(apiTokens).where(eq(apiTokens.userId, userId));
}
