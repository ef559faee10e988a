// A schedule that stops waits a bounded time for the pass under way, so a shutdown is never held by a slow probe
// or chain read; the caller then releases the job's lease if the pass did not finish, since the process is leaving.
export async function finishedWithin(pass: Promise<unknown>, waitMs: number): Promise<boolean> {
  let late: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    pass.then(() => true),
    new Promise<false>((resolve) => (late = setTimeout(resolve, waitMs, false))),
  ]);
  clearTimeout(late);
  return finished;
}
