"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { startDomainClaim, verifyDomainClaim } from "@/lib/claims/claim-listing";
import { userAction } from "./result";

const listingId = z.uuid("Unknown listing.");

/** 'Get a token': a one-time token for the listing's domain namespace, shown once. */
export async function requestClaimToken(id: string) {
  return userAction("requestClaimToken", listingId, id, async (listing, userId) => {
    const issued = await startDomainClaim(await getDb(), userId, listing);
    return {
      token: issued.token,
      record: issued.record,
      expiresAt: issued.expiresAt.toISOString(),
      domain: issued.domain,
      namespace: issued.namespace,
    };
  });
}

const verifySchema = z.object({
  listingId,
  method: z.enum(["well-known", "dns"], { message: "Choose the file or the DNS record." }),
});

/** 'Verify': reads what the domain publishes and claims the namespace's listings when the token is right. */
export async function verifyClaim(values: { listingId: string; method: "well-known" | "dns" }) {
  return userAction("verifyClaim", verifySchema, values, async (input, userId) => {
    const outcome = await verifyDomainClaim(await getDb(), userId, input.listingId, input.method);
    changedByAction(["catalogue"], ["/account"]);
    return outcome;
  });
}
