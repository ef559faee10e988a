// The one error safeFetch raises for a request it refuses or cuts short, with a code callers can branch on.
export type SafeFetchErrorCode =
  "invalid_url" | "blocked_address" | "dns_failure" | "too_many_redirects" | "response_too_large" | "timeout";

export class SafeFetchError extends Error {
  readonly code: SafeFetchErrorCode;
  constructor(code: SafeFetchErrorCode, message: string) {
    super(message);
    this.name = "SafeFetchError";
    this.code = code;
  }
}

/** The SafeFetchError behind an error, also when fetch or the MCP SDK wrapped it as a cause. */
export function findSafeFetchError(error: unknown): SafeFetchError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SafeFetchError) return e;
  }
  return null;
}
