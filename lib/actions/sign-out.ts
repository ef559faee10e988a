"use server";
import { signOut } from "@/lib/auth/authjs";
import { actionResult } from "./result";

/** Ends the browser session server-side (the `sessions` row goes) and clears the cookie. */
export async function signOutCurrentSession() {
  return actionResult("signOut", async () => {
    await signOut({ redirect: false });
    return null;
  });
}
