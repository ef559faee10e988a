// What failed and where, in one line a person can act on: "cannot reach the RPC at http://127.0.0.1:8545
// (AGORA_RPC_URL): connection refused", never only a library's "HTTP request failed."
const CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused (is it running, on that port?)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

type Causal = { code?: unknown; status?: unknown; cause?: unknown; name?: unknown; message?: unknown };

/** The innermost useful reason an error carries: a socket error code, an HTTP status, a timeout. */
export function reasonOf(error: unknown): string {
  for (let e = error as Causal | undefined, depth = 0; e && depth < 6; e = e.cause as Causal | undefined, depth++) {
    if (typeof e.code === "string" && CODES[e.code]) return CODES[e.code]!;
    if (typeof e.status === "number" && e.status >= 400) return `it answered HTTP ${e.status}`;
    // The MCP SDK's StreamableHTTPError carries the status as a numeric code.
    if (typeof e.code === "number" && e.code >= 400 && e.code < 600) return `it answered HTTP ${e.code}`;
    if (e.name === "TimeoutError" || e.name === "AbortError") return "timed out";
  }
  // Otherwise the innermost message: "fetch failed" and "HTTP request failed." say nothing of why.
  let inner = error as Causal | undefined;
  while (inner && typeof inner.cause === "object" && inner.cause !== null) inner = inner.cause as Causal;
  const message = typeof inner?.message === "string" ? inner.message : String(error);
  return (message === "bad port" ? "a port web clients refuse to use (choose another)" : message.split("\n")[0]!).slice(
    0,
    200,
  );
}

/** True when the error is about reaching the address at all (not an answer the far end gave). */
export function isUnreachable(error: unknown): boolean {
  for (let e = error as Causal | undefined, depth = 0; e && depth < 6; e = e.cause as Causal | undefined, depth++) {
    if (typeof e.code === "string" && CODES[e.code]) return true;
    if (e.name === "HttpRequestError" || e.name === "TimeoutError" || e.name === "AbortError") return true;
    if (e.message === "fetch failed") return true;
  }
  return false;
}
