"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { currentUser, SESSION_EXPIRED_MESSAGE } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/errors";
import { runRecheck } from "@/lib/listings/checks/recheck";
import { userAction } from "./result";

/** 'Re-check': the listing's owner or an admin probes its server now and sees the result. */
export async function recheckListing(listingId: string) {
  return userAction("recheckListing", z.uuid("Unknown listing."), listingId, async (id) => {
    const user = await currentUser();
    if (!user) throw new ApiError(401, SESSION_EXPIRED_MESSAGE, { code: "session_expired" });
    const summary = await runRecheck(await getDb(), user, id);
    changedByAction(["catalogue"], ["/admin/review", "/account"]);
    return summary;
  });
}
