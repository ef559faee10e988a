// Runs once when the server starts: a bad environment or an unreachable database stops it here,
// naming the problem, instead of failing on the first request that happens to need it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startUp } = await import("@/lib/startup");
    await startUp();
  }
}
