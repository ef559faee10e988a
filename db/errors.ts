// What a database failure means for the caller, read from the driver's error (PostgreSQL's SQLSTATE, or
// the postgres driver's connection codes), through drizzle's wrapping. Never shown: only classified.

/** SQLSTATEs and driver codes that mean "the database cannot be reached right now" (retry later). */
const UNAVAILABLE_CODES = new Set([
  "57P01", // admin_shutdown: the server is restarting
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "53300", // too_many_connections
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "CONNECTION_WAIT_TIMEOUT", // db/connection-deadline.ts: no connection within the deadline
]);
/**
 * Socket errors mean the database only when they come from a query (drizzle wraps those as "Failed query"):
 * a browser that hangs up mid-request raises ECONNRESET too, and that says nothing about the database.
 */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

function fromAQuery(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 6;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (e instanceof Error && (e.name === "DrizzleQueryError" || e.message.startsWith("Failed query:"))) return true;
  }
  return false;
}

/** Text PostgreSQL cannot store or compare: a NUL byte, a character the encoding lacks, a value too long for an index. */
const INVALID_TEXT_CODES = new Set(["22021", "22P05", "54000"]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 6;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    // PGlite reports a closed database with a plain message.
    if (e instanceof Error && /PGlite is closed/i.test(e.message)) codes.push("CONNECTION_ENDED");
  }
  return codes;
}

const isUnavailableCode = (code: string) => UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code);

export function isDatabaseUnavailable(error: unknown): boolean {
  const codes = codesOf(error);
  if (codes.some(isUnavailableCode)) return true;
  return codes.some((c) => SOCKET_CODES.has(c)) && fromAQuery(error);
}

/** The same, for an error known to come from a query (the driver's own, before drizzle wraps it). */
export function isConnectionFailure(error: unknown): boolean {
  return codesOf(error).some((c) => isUnavailableCode(c) || SOCKET_CODES.has(c));
}

/**
 * The query's connection was closed under it (the server restarted or ended the session) — a pooled connection
 * that is gone, not proof that the server is: the next attempt opens a new one.
 */
export function isDeadConnection(error: unknown): boolean {
  return codesOf(error).some((c) => DEAD_CONNECTION_CODES.has(c));
}
const DEAD_CONNECTION_CODES = new Set([
  "57P01",
  "57P02",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "EPIPE",
]);

export function isInvalidTextError(error: unknown): boolean {
  return codesOf(error).some((c) => INVALID_TEXT_CODES.has(c));
}
