// What the sign-in callback screen (/auth/callback) shows and where it goes next. Pure, so the client
// screen and its tests share it.

// Auth.js reports its own failures as `?error=<type>` (token exchange, state/PKCE checks, configuration…).
const AUTHJS_FAILURES = new Set([
  "AccessDenied",
  "CallbackRouteError",
  "Configuration",
  "CredentialsSignin",
  "InvalidCheck",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthProfileParseError",
  "OAuthSignInError",
  "Verification",
  "Default",
]);

export type CallbackOutcome = {
  toast: { kind: "success" | "error"; title: string; description: string };
  redirectTo: "/submit" | "/login";
};

export function callbackOutcome(params: { error?: string | null; signedIn: boolean }): CallbackOutcome {
  const { error, signedIn } = params;
  if (error && AUTHJS_FAILURES.has(error)) {
    return { toast: { kind: "error", title: "Error", description: "Failed to authenticate with GitHub. Please try again." }, redirectTo: "/login" };
  }
  // Anything else in `error` is the provider's own answer (e.g. the person pressed Cancel) or our refusal.
  if (error) return { toast: { kind: "error", title: "Authentication Error", description: error.slice(0, 300) }, redirectTo: "/login" };
  if (!signedIn) return { toast: { kind: "error", title: "Authentication Error", description: "No authorization code received." }, redirectTo: "/login" };
  return { toast: { kind: "success", title: "Success", description: "You have been logged in successfully." }, redirectTo: "/submit" };
}
