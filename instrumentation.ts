// Runs once when the server starts: a bad environment or an unreachable database stops it here,
// naming the problem, instead of failing on the first request that happens to need it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/env");
  try {
    env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // Open the database (and apply migrations) now, so the first request does not pay for it.
  const { getDb } = await import("@/db");
  await getDb().catch((error: unknown) => {
    console.error("Could not open the database:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
