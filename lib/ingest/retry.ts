// A source's page is asked for again once after a failure (a page that fails once is common upstream); a page
// that fails twice ends the run where it is, and the next run resumes there.
export async function withOneRetry<T>(read: () => Promise<T>, retryDelayMs: number): Promise<T> {
  try {
    return await read();
  } catch {
    await new Promise((r) => setTimeout(r, retryDelayMs));
    return read();
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "failed";
}
