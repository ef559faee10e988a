"use server";
import { PasswordSignInRefused, signIn } from "@/lib/auth/authjs";
import { signInSchema, type SignInInput } from "@/lib/validations/auth";
import { action } from "./result";

/** Email + password sign-in for the browser: opens a cookie session through Auth.js. */
export async function signInWithEmail(values: SignInInput) {
  return action("signInWithEmail", signInSchema, values, async (input) => {
    try {
      await signIn("password", { ...input, redirect: false });
    } catch (error) {
      if (error instanceof PasswordSignInRefused) throw error.refusal;
      throw error;
    }
    return null;
  });
}
