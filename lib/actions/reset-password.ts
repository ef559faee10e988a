"use server";
import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { resetPassword } from "@/lib/auth/password-reset";
import { clientIp } from "@/lib/http/client-address";
import { resetPasswordSchema, type ResetPasswordInput } from "@/lib/validations/auth";
import { action } from "./result";

/** Sets a new password from an emailed link; every session and token of the account ends. */
export async function resetPasswordWithLink(values: ResetPasswordInput) {
  return action("resetPasswordWithLink", resetPasswordSchema, values, async (input) => {
    await resetPassword(await getDb(), input, clientIp({ headers: await headers() }));
    return null;
  });
}
