"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { userAction } from "./result";

/** Revokes one of the signed-in user's tokens; it stops working on its next request. */
export async function revokePersonalApiToken(tokenId: string) {
  return userAction(
    "revokePersonalApiToken",
    z.uuid("That token does not exist or was already revoked."),
    tokenId,
    async (id, userId) => {
      await revokeApiToken(await getDb(), userId, id);
      changedByAction([], ["/account"]);
      return null;
    },
  );
}
