"use server";
import { z } from "zod";
import { AUTH_BASE_PATH, CALLBACK_PAGE, oauthProviders, signIn } from "@/lib/auth/authjs";
import { GITHUB_CLAIM_SCOPE } from "@/lib/auth/github";
import { ApiError } from "@/lib/errors";
import { actionResult } from "./result";

const providerSchema = z.enum(["github", "google"], { message: "Unknown sign-in provider." });
const purposeSchema = z.enum(["sign-in", "claim"]);
const NAMES = { github: "GitHub", google: "Google" } as const;

/**
 * Starts a GitHub (or Google) sign-in: Auth.js sets its state and PKCE cookies and returns the provider's
 * authorization URL, which the button then opens. The provider sends the browser back to Auth.js, which
 * finishes on /auth/callback.
 */
export async function startOAuthSignIn(provider: "github" | "google", purpose: "sign-in" | "claim" = "sign-in") {
  return actionResult("startOAuthSignIn", async () => {
    // A server action can be called with anything: only the providers this site offers are started.
    const parsed = providerSchema.safeParse(provider);
    if (!parsed.success) throw new ApiError(400, "Unknown sign-in provider.");
    if (!oauthProviders()[parsed.data])
      throw new ApiError(404, `Sign-in with ${NAMES[parsed.data]} is not available on this site.`);
    provider = parsed.data;
    // A claim of an organisation's names needs GitHub to say who owns it (read:org); no other sign-in asks for it.
    const claiming = provider === "github" && purposeSchema.safeParse(purpose).data === "claim";
    const url = new URL(
      await signIn(
        provider,
        { redirect: false, redirectTo: CALLBACK_PAGE },
        claiming ? { scope: GITHUB_CLAIM_SCOPE } : undefined,
      ),
    );
    // An unconfigured provider or a failure comes back as one of our own pages instead of the provider's.
    if ([AUTH_BASE_PATH, CALLBACK_PAGE].some((p) => url.pathname.startsWith(p))) {
      throw new Error(`Auth.js returned no authorization URL for ${provider}: ${url.pathname}`);
    }
    return { url: url.toString() };
  });
}
