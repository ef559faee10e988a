// Runs once when the server starts: a bad environment or an unreachable database stops it here,
// naming the problem, instead of failing on the first request that happens to need it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startUp } = await import("@/lib/startup");
    await startUp();
  }
}

// A page that failed because the database is unreachable marks it down, so proxy.ts answers the next
// requests with a 503 until it is back (a page itself can only answer 500).
export async function onRequestError(error: unknown) {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportDatabaseFailure } = await import("@/lib/database");
  reportDatabaseFailure(error);
}
