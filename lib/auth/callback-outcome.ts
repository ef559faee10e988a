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

// Every other `error` shows a fixed text: the parameter is the provider's code (or ours), and anyone can put
// anything in a link to this page, so no text from the URL is ever shown (content spoofing).
const KNOWN_REFUSALS: Record<string, string> = {
  access_denied: "The sign-in was cancelled or access was not granted.",
  EmailTaken: "An account with this email already exists. Sign in with your email and password.",
  temporarily_unavailable: "GitHub is unavailable at the moment. Please try again later.",
};
const UNKNOWN_REFUSAL = "The sign-in did not complete. Please try again.";
// The spec shows the parameter's value as the description. A bare OAuth error code (RFC 6749 §4.1.2.1:
// access_denied, server_error …) is shown beside the friendly text, so a person can report it; any other value
// (sentences, punctuation, digits, capitals) could be a stranger's words and is never shown.
const OAUTH_ERROR_CODE = /^[a-z_]{1,64}$/;
const EXCHANGE_FAILED = {
  kind: "error",
  title: "Error",
  description: "Failed to authenticate with GitHub. Please try again.",
} as const;

export type CallbackOutcome = {
  toast: { kind: "success" | "error"; title: string; description: string };
  redirectTo: "/submit" | "/login";
};

export function callbackOutcome(params: {
  error?: string | null;
  code?: string | null;
  signedIn: boolean;
}): CallbackOutcome {
  const { error, code, signedIn } = params;
  if (error && AUTHJS_FAILURES.has(error)) return { toast: { ...EXCHANGE_FAILED }, redirectTo: "/login" };
  // Anything else in `error` is the provider's own answer (e.g. the person pressed Cancel) or our refusal.
  if (error) {
    const friendly = Object.hasOwn(KNOWN_REFUSALS, error) ? KNOWN_REFUSALS[error]! : UNKNOWN_REFUSAL;
    const description = OAUTH_ERROR_CODE.test(error) ? `${friendly} (${error})` : friendly;
    return { toast: { kind: "error", title: "Authentication Error", description }, redirectTo: "/login" };
  }
  // A code came back but no sign-in finished: the exchange failed.
  if (!signedIn && code) return { toast: { ...EXCHANGE_FAILED }, redirectTo: "/login" };
  if (!signedIn)
    return {
      toast: { kind: "error", title: "Authentication Error", description: "No authorization code received." },
      redirectTo: "/login",
    };
  return {
    toast: { kind: "success", title: "Success", description: "You have been logged in successfully." },
    redirectTo: "/submit",
  };
}
