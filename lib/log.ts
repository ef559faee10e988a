// Structured JSON logs on stdout/stderr, one line per event, for the platform's log collector.
type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", msg: string, fields: Fields) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
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
  const err = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
  write("error", msg, { ...fields, error: err });
}
