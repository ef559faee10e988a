"use server";
import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { resendVerificationLink, verifyEmail } from "@/lib/auth/email-verification";
import { findUserById } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-address";
import { verifyEmailSchema, type VerifyEmailInput } from "@/lib/validations/auth";
import { action, actionResult } from "./result";

/** Confirms the address from a mailed link (the link's token is the proof; no session needed). */
export async function confirmEmailWithLink(values: VerifyEmailInput) {
  return action("confirmEmailWithLink", verifyEmailSchema, values, async ({ token }) => {
    await verifyEmail(await getDb(), token, clientIp({ headers: await headers() }));
    return null;
  });
}

/** Mails a fresh verification link to the signed-in person's unconfirmed address. */
export async function resendEmailVerification() {
  return actionResult("resendEmailVerification", async () => {
    const db = await getDb();
    const user = await findUserById(db, await requireSessionUserId());
    if (!user?.email) throw new ApiError(400, "Your account has no email address to confirm.");
    await resendVerificationLink(db, user);
    return null;
  });
}
