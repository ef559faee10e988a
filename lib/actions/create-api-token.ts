"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { getDb } from "@/lib/database";
import { issueApiToken } from "@/lib/auth/api-tokens";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { apiTokenSchema, type ApiTokenValues } from "@/lib/validations/auth";
import { userAction } from "./result";

/** A personal API token; the secret is returned this once and only its digest is kept. */
export async function createPersonalApiToken(values: ApiTokenValues) {
  return userAction("createPersonalApiToken", apiTokenSchema, values, async (input, userId) => {
    const db = await getDb();
    await enforceLimit(db, limits.tokensPerUser, userId);
    const { token, expiresAt } = await issueApiToken(db, {
      userId,
      kind: "personal",
      name: input.name,
      days: input.expiresInDays,
    });
    changedByAction([], ["/account"]);
    return { token, expiresAt };
  });
}
