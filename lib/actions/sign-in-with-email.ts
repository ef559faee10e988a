"use server";
import { PasswordSignInRefused, signIn } from "@/lib/auth/authjs";
import { signInSchema, type SignInInput } from "@/lib/validations/auth";
import { actionResult } from "./result";

/** Email + password sign-in for the browser: opens a cookie session through Auth.js. */
export async function signInWithEmail(values: SignInInput) {
  return actionResult("signInWithEmail", async () => {
    const input = signInSchema.parse(values);
    try {
      await signIn("password", { ...input, redirect: false });
    } catch (error) {
      if (error instanceof PasswordSignInRefused) throw error.refusal;
      throw error;
    }
    return null;
  });
}
