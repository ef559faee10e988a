"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { actionResult } from "./result";

/** Revokes one of the signed-in user's tokens; it stops working on its next request. */
export async function revokePersonalApiToken(tokenId: string) {
  return actionResult("revokePersonalApiToken", async () => {
    const userId = await requireSessionUserId();
    await revokeApiToken(await getDb(), userId, z.uuid("That token does not exist or was already revoked.").parse(tokenId));
    revalidatePath("/account");
    return null;
  });
}
