// Why a probe failed, as a class, an HTTP status when there was one, and a fixed sentence. A probed server
// is untrusted: its error pages and messages are never stored or shown (they could carry anything, and the
// owner would see it in the console), so nothing here copies text from the server's answer.
import { ProtocolError, SdkHttpError, SseError } from "@modelcontextprotocol/client";
import { findSafeFetchError, type SafeFetchError } from "@/lib/ssrf";

type ProbeErrorClass =
  | "invalid_url"
  | "blocked_address"
  | "dns_failure"
  | "too_many_redirects"
  | "response_too_large"
  | "timeout"
  | "http_error"
  | "connection_failed"
  | "not_mcp"
  | "protocol_error";

export type ProbeFailure = { errorClass: ProbeErrorClass; httpStatus: number | null; message: string };

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT",
]);

function httpStatusOf(error: unknown): number | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const status = e instanceof SdkHttpError ? e.status : e instanceof SseError ? e.code : undefined;
    if (typeof status === "number" && status >= 100 && status <= 599) return status;
  }
  return null;
}

function connectionCodeOf(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return code;
    // fetch never connects to the ports the Fetch standard blocks (9, 25, 6667…): no server there was asked.
    if (e instanceof Error && e.message === "bad port") return "blocked port";
  }
  return null;
}

/** A refusal of our own fetch guard: its message is ours (it names the address policy), so it is kept. */
export function refusalFailure(refusal: SafeFetchError): ProbeFailure {
  return { errorClass: refusal.code, httpStatus: null, message: refusal.message.slice(0, 300) };
}

export function timeoutFailure(ms: number): ProbeFailure {
  return { errorClass: "timeout", httpStatus: null, message: `No complete answer within ${ms} ms` };
}

/** Classifies a failure of the MCP exchange, by type and status only. */
export function classifyProbeError(error: unknown, fallback: ProbeErrorClass = "protocol_error"): ProbeFailure {
  const refusal = findSafeFetchError(error);
  if (refusal) return refusalFailure(refusal);
  const status = httpStatusOf(error);
  if (status !== null)
    return { errorClass: "http_error", httpStatus: status, message: `The server answered HTTP ${status}.` };
  const code = connectionCodeOf(error);
  if (code)
    return { errorClass: "connection_failed", httpStatus: null, message: `Could not connect to the server (${code}).` };
  if (error instanceof ProtocolError)
    return {
      errorClass: "protocol_error",
      httpStatus: null,
      message: `The server answered with MCP error ${error.code}.`,
    };
  if (fallback === "not_mcp")
    return {
      errorClass: "not_mcp",
      httpStatus: null,
      message: "Not an MCP server: no answer over Streamable HTTP or the older HTTP+SSE transport.",
    };
  return { errorClass: fallback, httpStatus: null, message: "The server broke off the MCP exchange." };
}

/** A tool call that failed, for the probe's quirks: the tool's name (clipped by the caller) and the class. */
export function toolCallProblem(error: unknown): string {
  const failure = classifyProbeError(error);
  return failure.httpStatus
    ? `HTTP ${failure.httpStatus}`
    : error instanceof ProtocolError
      ? `MCP error ${error.code}`
      : failure.errorClass.replace("_", " ");
}
