// Recognises a unique-constraint violation from either driver (drizzle wraps the driver's error in `cause`).
type DriverError = { code?: string; constraint?: string; constraint_name?: string };

/** The violated constraint's name, or null when `error` is not a unique violation. */
export function violatedUniqueConstraint(error: unknown): string | null {
  for (let e = error as (DriverError & { cause?: unknown }) | undefined; e; e = e.cause as typeof e) {
    if (typeof e === "object" && e.code === "23505") return e.constraint ?? e.constraint_name ?? "";
  }
  return null;
}
