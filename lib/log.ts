// Structured JSON logs on stdout/stderr, one line per event, for the platform's log collector.
type Fields = Record<string, unknown>;

/** Longest text any one logged value keeps: values can come from requests, and nobody may fill the log. */
export const MAX_LOGGED_TEXT = 2_000;

function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === "string")
    return value.length > MAX_LOGGED_TEXT
      ? `${value.slice(0, MAX_LOGGED_TEXT)}… (${value.length - MAX_LOGGED_TEXT} more characters)`
      : value;
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => bounded(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, 50)
      .map(([k, v]) => [k, bounded(v, depth + 1)]),
  );
}

function write(level: "info" | "warn" | "error", msg: string, fields: Fields) {
  const line = JSON.stringify(bounded({ level, time: new Date().toISOString(), msg, ...fields }));
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export function logInfo(msg: string, fields: Fields = {}) {
  write("info", msg, fields);
}

export function logWarn(msg: string, fields: Fields = {}) {
  write("warn", msg, fields);
}

export function logError(msg: string, error: unknown, fields: Fields = {}) {
  write("error", msg, { ...fields, error: describe(error, 0) });
}

// With the names and codes of its causes (drizzle's "Failed query" wraps the driver's error, whose code says what
// happened: ECONNRESET, 57P01, CONNECTION_WAIT_TIMEOUT). Not the causes' messages: they add nothing to the code
// and could carry what a log must not.
function describe(error: unknown, depth: number): Fields {
  if (!(error instanceof Error)) return depth === 0 ? { value: String(error) } : {};
  const code = (error as { code?: unknown }).code;
  const out: Fields = { name: error.name, ...(typeof code === "string" ? { code } : {}) };
  if (depth === 0) Object.assign(out, { message: error.message, stack: error.stack });
  if (error.cause instanceof Error && depth < 3) out.cause = describe(error.cause, depth + 1);
  return out;
}
