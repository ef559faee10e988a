"use server";
import { AUTH_BASE_PATH, CALLBACK_PAGE, signIn } from "@/lib/auth/authjs";
import { actionResult } from "./result";

/**
 * Starts a GitHub (or Google) sign-in: Auth.js sets its state and PKCE cookies and returns the provider's
 * authorization URL, which the button then opens. The provider sends the browser back to Auth.js, which
 * finishes on /auth/callback.
 */
export async function startOAuthSignIn(provider: "github" | "google") {
  return actionResult("startOAuthSignIn", async () => {
    const url = new URL(await signIn(provider, { redirect: false, redirectTo: CALLBACK_PAGE }));
    // An unconfigured provider or a failure comes back as one of our own pages instead of the provider's.
    if ([AUTH_BASE_PATH, CALLBACK_PAGE].some((p) => url.pathname.startsWith(p))) {
      throw new Error(`Auth.js returned no authorization URL for ${provider}: ${url.pathname}`);
    }
    return { url: url.toString() };
  });
}
