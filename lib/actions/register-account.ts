"use server";
import { headers } from "next/headers";
import { getDb } from "@/lib/database";
import { signIn } from "@/lib/auth/authjs";
import { registerAccount } from "@/lib/auth/password-accounts";
import { clientIp } from "@/lib/http/client-address";
import { registerSchema, type RegisterInput } from "@/lib/validations/auth";
import { action } from "./result";

/** Creates an email + password account and signs the browser in. */
export async function registerWithEmail(values: RegisterInput) {
  return action("registerWithEmail", registerSchema, values, async (input) => {
    await registerAccount(await getDb(), input, clientIp({ headers: await headers() }));
    await signIn("password", { email: input.email, password: input.password, redirect: false });
    return null;
  });
}
