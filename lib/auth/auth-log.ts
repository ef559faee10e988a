// What Auth.js reports, logged by who is at fault. Auth.js hands every failure to `logger.error` with its stack,
// a request a client got wrong (a forged CSRF token, a state cookie that is missing, a callback URL that is not one,
// a session cookie that does not decrypt, a body that is not JSON) as much as a fault of this server, so a sweep of
// malformed requests wrote dozens of error-level stacks. The client's mistakes are one warn line without a stack;
// everything else stays an error with its stack.
import { CredentialsSignin } from "next-auth";
import { logError, logWarn } from "@/lib/log";

// Auth.js error types a request causes by itself: its own list of errors safe to show a client, and the checks of
// what the request carries.
const CLIENT_ERROR_TYPES = new Set([
  "UnknownAction",
  "InvalidProvider",
  "InvalidCallbackUrl",
  "InvalidCheck",
  "MissingCSRF",
  "OAuthCallbackError",
  "OAuthAccountNotLinked",
  "AccessDenied",
  "Verification",
  "AccountNotLinked",
]);

/** The Auth.js error type (or a short name) when `error` is the client's doing; null for a fault of the server. */
export function clientFault(error: Error): string | null {
  const type = (error as { type?: unknown }).type;
  if (typeof type === "string" && CLIENT_ERROR_TYPES.has(type)) return type;
  // @auth/core's provider lookup throws a plain Error for an unknown provider id.
  if (/^Provider with id ".*" not found\./s.test(error.message)) return "InvalidProvider";
  // A session cookie that does not decrypt (forged, cut short, or sealed with another secret); a database that
  // fails while the session is looked up is wrapped the same way, and stays an error.
  if (type === "JWTSessionError" && undecryptable(causeOf(error))) return "JWTSessionError";
  // The request's body did not parse (Auth.js reads a JSON body itself, before any check).
  if (error instanceof SyntaxError) return "MalformedBody";
  return null;
}

function causeOf(error: Error): unknown {
  const cause = error.cause as { err?: unknown } | undefined;
  return cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
}

function undecryptable(cause: unknown): boolean {
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  return (
    (typeof code === "string" && /^ERR_J(OSE|WE|WT|WS|WK)/.test(code)) ||
    cause.message === "no matching decryption secret"
  );
}

/** The `logger` of the Auth.js configuration. */
export const authLogger = {
  error(error: Error) {
    // A wrong password is an answer, not a fault.
    if (error instanceof CredentialsSignin) return;
    const fault = clientFault(error);
    if (fault)
      return logWarn("auth.js: refused a malformed request", { type: fault, message: error.message.split("\n")[0] });
    logError("auth.js", error);
  },
  warn(code: string) {
    logWarn("auth.js", { code });
  },
  debug() {},
};
