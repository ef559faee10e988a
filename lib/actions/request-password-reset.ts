"use server";
import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { resetRequestedMessage } from "@/lib/auth/link-words";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { clientIp } from "@/lib/http/client-address";
import { linkDelivery } from "@/lib/mail";
import { forgotPasswordSchema, type ForgotPasswordInput } from "@/lib/validations/auth";
import { action } from "./result";

/** Asks for a reset link; answers the same whether or not the account exists. */
export async function requestPasswordResetLink(values: ForgotPasswordInput) {
  return action("requestPasswordResetLink", forgotPasswordSchema, values, async ({ email }) => {
    await requestPasswordReset(await getDb(), email, clientIp({ headers: await headers() }));
    return { message: resetRequestedMessage(linkDelivery()) };
  });
}
